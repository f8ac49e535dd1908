import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { authorizeRole } from './authorize-role.js';

const { env, admin, user, reaching } = stepHarness();

describe('authorizeRole', () => {
  it('is 403 when an ADMIN operation is called by a USER', async () => {
    const x = await reaching(authorizeRole, 'POST', '/api/v1/admin/users/3/block', user);
    expect(() => authorizeRole(x)).toThrow(
      expect.objectContaining({ status: 403, slug: 'forbidden' }),
    );
  });

  it('passes an ADMIN, and a USER where no role is required', async () => {
    const x = await reaching(authorizeRole, 'POST', '/api/v1/admin/users/3/block', admin);
    expect(authorizeRole(x)).toBeUndefined();
    expect(
      authorizeRole(await reaching(authorizeRole, 'GET', '/api/v1/users/2', user)),
    ).toBeUndefined();
  });

  it('passes an open operation: there is no caller to judge', async () => {
    expect(
      authorizeRole(await reaching(authorizeRole, 'POST', '/api/v1/auth/login')),
    ).toBeUndefined();
  });
});
