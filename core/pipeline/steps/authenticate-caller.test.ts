import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { authenticateCaller } from './authenticate-caller.js';

const { env, admin, user, reaching } = stepHarness();

describe('authenticateCaller', () => {
  it('is 401 without a token, which was not presented', async () => {
    const x = await reaching(authenticateCaller, 'GET', '/api/v1/users/2');
    expect(() => authenticateCaller(x, env)).toThrow(
      expect.objectContaining({ status: 401, slug: 'unauthenticated' }),
    );
    expect(x.tokenPresented).toBe(false);
  });

  it('is 401 for a bad token, which was presented', async () => {
    const x = await reaching(authenticateCaller, 'GET', '/api/v1/users/2', {
      Authorization: 'Bearer not.a.token',
    });
    await expect(authenticateCaller(x, env)).rejects.toMatchObject({ status: 401 });
    expect(x.tokenPresented).toBe(true);
  });

  it('is the 400 of a token sent in two ways', async () => {
    const x = await reaching(authenticateCaller, 'GET', '/api/v1/users/2?access_token=t', user);
    expect(() => authenticateCaller(x, env)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('sets the principal of a valid token', async () => {
    const x = await reaching(authenticateCaller, 'GET', '/api/v1/users/2', user);
    await authenticateCaller(x, env);
    expect(x.principal).toEqual({ userId: 2, isAdmin: false });
  });

  it('passes an open operation untouched, even with a token', async () => {
    const x = await reaching(authenticateCaller, 'POST', '/api/v1/auth/login', user);
    expect(authenticateCaller(x, env)).toBeUndefined();
    expect(x.principal).toBeUndefined();
  });
});
