import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { parseParameters } from './parse-parameters.js';

const { env, admin, user, reaching } = stepHarness();

describe('parseParameters', () => {
  it('is 400 listing every bad parameter, path and query alike', async () => {
    const x = await reaching(parseParameters, 'GET', '/api/v1/users/abc?unknown=1', user);
    try {
      parseParameters(x, env);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ status: 400, slug: 'validation-failed' });
      const pointers = (error as { errors: { pointer: string }[] }).errors.map((e) => e.pointer);
      expect(pointers.sort()).toEqual(['#/path/id', '#/query/unknown']);
    }
  });

  it("builds the handler's input from the converted parameters", async () => {
    const x = await reaching(parseParameters, 'GET', '/api/v1/users/2', user);
    parseParameters(x, env);
    expect(x.input).toMatchObject({
      principal: { userId: 2 },
      path: { id: 2 },
      body: undefined,
      apiPath: '/users/2',
      rawQuery: '',
    });
    expect(x.idempotencyKey).toBeUndefined();
  });

  it('keeps the Idempotency-Key for runOperation', async () => {
    const x = await reaching(
      parseParameters,
      'POST',
      '/api/v1/users',
      {
        ...admin,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'k-1',
      },
      '{}',
    );
    parseParameters(x, env);
    expect(x.idempotencyKey).toBe('k-1');
  });
});
