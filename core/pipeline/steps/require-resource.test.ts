import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { requireResource } from './require-resource.js';

const { env, admin, user, reaching } = stepHarness();

describe('requireResource', () => {
  it('is 404 when the resource the operation acts on is absent', async () => {
    const x = await reaching(requireResource, 'POST', '/api/v1/admin/users/999/block', admin);
    await expect(requireResource(x)).rejects.toThrow(expect.objectContaining({ status: 404 }));
  });

  it('passes an existing resource, and operations that require none', async () => {
    const block = await reaching(requireResource, 'POST', '/api/v1/admin/users/3/block', admin);
    expect(await requireResource(block)).toBeUndefined();
    expect(
      await requireResource(await reaching(requireResource, 'GET', '/api/v1/roles', user)),
    ).toBeUndefined();
  });
});
