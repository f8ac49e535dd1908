import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { judgePreconditions } from './judge-preconditions.js';

const { env, admin, user, reaching } = stepHarness();

const json = { 'Content-Type': 'application/json' };

describe('judgePreconditions', () => {
  it('is 412 for an If-Match that is not the current ETag, before the body is read', async () => {
    const x = await reaching(
      judgePreconditions,
      'PUT',
      '/api/v1/users/2',
      { ...admin, ...json, 'If-Match': '"stale"' },
      'not even JSON',
    );
    await expect(judgePreconditions(x)).rejects.toThrow(
      expect.objectContaining({ status: 412, slug: 'precondition-failed' }),
    );
  });

  it('is 412 for If-None-Match: * on an existing resource', async () => {
    const x = await reaching(
      judgePreconditions,
      'PUT',
      '/api/v1/users/2',
      { ...admin, ...json, 'If-None-Match': '*' },
      '{}',
    );
    await expect(judgePreconditions(x)).rejects.toThrow(expect.objectContaining({ status: 412 }));
  });

  it('passes unconditional writes and safe methods', async () => {
    const put = await reaching(
      judgePreconditions,
      'PUT',
      '/api/v1/users/2',
      { ...admin, ...json },
      '{}',
    );
    expect(await judgePreconditions(put)).toBeUndefined();
    const get = await reaching(judgePreconditions, 'GET', '/api/v1/users/2', {
      ...user,
      'If-Match': '"stale"',
    });
    expect(await judgePreconditions(get)).toBeUndefined();
  });
});
