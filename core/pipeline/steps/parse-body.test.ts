import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { parseBody } from './parse-body.js';

const { env, admin, user, reaching } = stepHarness();

const json = { 'Content-Type': 'application/json' };

describe('parseBody', () => {
  it('is 400 listing every violation of the body', async () => {
    const x = await reaching(
      parseBody,
      'POST',
      '/api/v1/users',
      { ...admin, ...json },
      '{"age":3}',
    );
    try {
      parseBody(x);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ status: 400, slug: 'validation-failed' });
      expect((error as { errors: unknown[] }).errors.length).toBeGreaterThanOrEqual(3);
    }
  });

  it("puts a valid body into the handler's input", async () => {
    const body = { name: 'Eve', email: 'eve@example.com' };
    const x = await reaching(
      parseBody,
      'POST',
      '/api/v1/users',
      { ...admin, ...json },
      JSON.stringify(body),
    );
    parseBody(x);
    expect(x.input?.body).toEqual(body);
  });
});
