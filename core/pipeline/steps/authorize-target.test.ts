import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { authorizeTarget } from './authorize-target.js';

const { env, admin, user, reaching } = stepHarness();

const json = { 'Content-Type': 'application/json' };
const stale = { 'If-Match': '"stale"' };

describe('authorizeTarget', () => {
  it.each([
    ['PUT', '{"name":"Eve","email":"eve@example.com"}'],
    ['PATCH', '{"name":"Eve"}'],
    ['DELETE', undefined],
  ])(
    'is 403 for a USER who %ss a user holding ADMIN, stale If-Match or not',
    async (method, body) => {
      const headers = { ...user, ...stale, ...(body ? json : {}) };
      const x = await reaching(authorizeTarget, method, '/api/v1/users/1', headers, body);
      await expect(authorizeTarget(x)).rejects.toThrow(
        expect.objectContaining({
          status: 403,
          slug: 'forbidden',
          message: 'User 1 holds ADMIN; only an ADMIN may change them.',
        }),
      );
    },
  );

  it('is 403 for a USER activating a user holding ADMIN, before the body is read', async () => {
    const x = await reaching(
      authorizeTarget,
      'POST',
      '/api/v1/users/1/activate',
      { ...user, ...json },
      '{"unexpected":true}',
    );
    await expect(authorizeTarget(x)).rejects.toThrow(expect.objectContaining({ status: 403 }));
  });

  it('passes an ADMIN, a USER acting on a USER, an absent user and other operations', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['PATCH', '/api/v1/users/1', admin],
      ['PATCH', '/api/v1/users/3', user],
      ['PUT', '/api/v1/users/999', user],
      ['DELETE', '/api/v1/users/2/orders/1', user],
    ];
    for (const [method, path, who] of cases) {
      const x = await reaching(authorizeTarget, method, path, { ...who, ...stale, ...json }, '{}');
      expect(await authorizeTarget(x), `${method} ${path}`).toBeUndefined();
    }
  });
});
