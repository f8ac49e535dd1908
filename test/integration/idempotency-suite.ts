import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/load-spec.js';
import { ResponseValidator } from '../../spec/response-validator.js';
import type { Problem } from './contract-checks.js';
import { exchange } from './exchange.js';
import type { UserDto } from './fixtures.js';
import type { SuiteContext } from './suite-context.js';

/**
 * Idempotency-Key on POST /users and POST /users/{userId}/orders: replay, reuse with another
 * body, scope, validation, a request still in flight, and a 503 that is not remembered.
 */
export function idempotencySuite(ctx: SuiteContext): void {
  let validator: ResponseValidator;
  beforeAll(async () => {
    validator = new ResponseValidator(await loadSpec());
  });

  const key = () => `key-${ctx.fx.uniqueEmail('idem')}`;

  describe('Idempotency-Key', () => {
    it('the same key and body replays the first answer: status, body and Location', async () => {
      const k = key();
      const body = { name: 'Once', email: ctx.fx.uniqueEmail(), age: 30 };
      const first = await ctx.fx.call('POST', '/users', {
        headers: { 'Idempotency-Key': k },
        json: body,
      });
      expect(first.status).toBe(201);
      // Same JSON, keys in another order: compared as parsed JSON.
      const again = await exchange({
        method: 'POST',
        url: `${ctx.server.api}/users`,
        headers: {
          Authorization: `Bearer ${ctx.server.adminToken}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': k,
        },
        body: JSON.stringify({ age: 30, email: body.email, name: 'Once' }),
      });
      expect(again.status).toBe(201);
      expect(again.body).toBe(first.body);
      // Nothing new was created: the next id follows directly.
      expect((await ctx.fx.newUser()).id).toBe(first.json<UserDto>().id + 1);
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(validator.validate('createUser', again)).toEqual([]);
    });

    it('replays for orders too', async () => {
      const user = await ctx.fx.newUser();
      const k = key();
      const body = { product: 'Kite', categoryId: 5 };
      const first = await ctx.fx.call('POST', `/users/${user.id}/orders`, {
        headers: { 'Idempotency-Key': k },
        json: body,
      });
      const again = await ctx.fx.call('POST', `/users/${user.id}/orders`, {
        headers: { 'Idempotency-Key': k },
        json: body,
      });
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.body).toBe(first.body);
      expect((await ctx.fx.call('GET', `/users/${user.id}/orders`)).json<unknown[]>()).toHaveLength(
        1,
      );
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      expect(validator.validate('createUserOrder', again)).toEqual([]);
    });

    it('the same key with another body is 422 idempotency-key-reused', async () => {
      const k = key();
      await ctx.fx.expect(201, 'POST', '/users', {
        headers: { 'Idempotency-Key': k },
        json: { name: 'A', email: ctx.fx.uniqueEmail() },
      });
      const res = await ctx.fx.call('POST', '/users', {
        headers: { 'Idempotency-Key': k },
        json: { name: 'B', email: ctx.fx.uniqueEmail() },
      });
      expect(res.status).toBe(422);
      expect(res.json<Problem>().type).toBe('urn:apikit:problem:idempotency-key-reused');
    });

    it('a remembered 409 is replayed as 409', async () => {
      const k = key();
      const body = { name: 'Dup', email: 'admin@example.com' };
      const first = await ctx.fx.call('POST', '/users', {
        headers: { 'Idempotency-Key': k },
        json: body,
      });
      const again = await ctx.fx.call('POST', '/users', {
        headers: { 'Idempotency-Key': k },
        json: body,
      });
      expect([first.status, again.status]).toEqual([409, 409]);
    });

    it('keys are scoped to the caller: another subject with the same key is not replayed', async () => {
      const k = key();
      const body = { name: 'Scoped', email: ctx.fx.uniqueEmail() };
      await ctx.fx.expect(201, 'POST', '/users', { headers: { 'Idempotency-Key': k }, json: body });
      const other = await ctx.fx.call('POST', '/users', {
        token: ctx.server.userToken,
        headers: { 'Idempotency-Key': k },
        json: body,
      });
      expect(other.status).toBe(409); // a real second attempt: the email is taken
    });

    it('a key over 255 characters is 400 with pointer #/header/Idempotency-Key', async () => {
      const res = await ctx.fx.call('POST', '/users', {
        headers: { 'Idempotency-Key': 'k'.repeat(256) },
        json: { name: 'Long', email: ctx.fx.uniqueEmail() },
      });
      expect(res.status).toBe(400);
      expect(res.json<Problem>().errors?.map((e) => e.pointer)).toEqual([
        '#/header/Idempotency-Key',
      ]);
    });

    it('a request that failed validation is not remembered', async () => {
      const k = key();
      const bad = await ctx.fx.call('POST', '/users', {
        headers: { 'Idempotency-Key': k },
        json: { name: '' },
      });
      expect(bad.status).toBe(400);
      const good = await ctx.fx.call('POST', '/users', {
        headers: { 'Idempotency-Key': k },
        json: { name: 'Ok', email: ctx.fx.uniqueEmail() },
      });
      expect(good.status).toBe(201);
    });

    // Both need a disk to slow down or break: registered only where the store is one (not on
    // PostgreSQL, test/postgres/, whose 503s and in-flight keys have tests of their own).
    if (ctx.disk === undefined) return;
    it('while the first request is still being handled, the same key is 409 idempotency-key-in-use', async () => {
      const disk = ctx.disk!;
      disk.delayMs = 300;
      try {
        const k = key();
        const body = { name: 'Slow', email: ctx.fx.uniqueEmail() };
        const first = ctx.fx.call('POST', '/users', {
          headers: { 'Idempotency-Key': k },
          json: body,
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        const second = await ctx.fx.call('POST', '/users', {
          headers: { 'Idempotency-Key': k },
          json: body,
        });
        expect(second.status).toBe(409);
        expect(second.json<Problem>().type).toBe('urn:apikit:problem:idempotency-key-in-use');
        expect((await first).status).toBe(201);
        const third = await ctx.fx.call('POST', '/users', {
          headers: { 'Idempotency-Key': k },
          json: body,
        });
        expect(third.body).toBe((await first).body);
      } finally {
        disk.delayMs = 0;
      }
    });

    it('a 503 is not remembered: the retry with the same key succeeds', async () => {
      const disk = ctx.disk!;
      const k = key();
      const body = { name: 'Retry', email: ctx.fx.uniqueEmail() };
      disk.failWrites();
      let failed;
      try {
        failed = await ctx.fx.call('POST', '/users', {
          headers: { 'Idempotency-Key': k },
          json: body,
        });
      } finally {
        disk.healWrites();
      }
      expect(failed.status).toBe(503);
      const retry = await ctx.fx.call('POST', '/users', {
        headers: { 'Idempotency-Key': k },
        json: body,
      });
      expect(retry.status).toBe(201);
    });
  });
}
