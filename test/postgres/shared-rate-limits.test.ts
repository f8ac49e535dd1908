import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startPostgresInstances,
  type PostgresInstances,
} from '../support/postgres/postgres-instances.js';

// Decision 0086: on PostgreSQL every instance spends one budget per client, so a client cannot
// multiply its limit by the number of instances behind the balancer.
describe('rate limits shared by instances on one database', () => {
  let shared: PostgresInstances;
  beforeAll(async () => {
    shared = await startPostgresInstances({
      count: 2,
      poolSize: 3,
      server: { rateLimit: 6, loginRateLimit: 2 },
    });
  }, 120_000);
  afterAll(() => shared?.close());

  it('answers the 7th request of a minute with 429 whichever instances served the first 6', async () => {
    const statuses: number[] = [];
    const remaining: string[] = [];
    // Counted under the token's subject (read unverified, decision 0028), apart from the
    // address the login test below spends; the forged token is refused with 401 anyway.
    const payload = Buffer.from(JSON.stringify({ sub: '99' })).toString('base64url');
    const headers = { Authorization: `Bearer eyJhbGciOiJIUzI1NiJ9.${payload}.c2ln` };
    for (let i = 0; i < 7; i += 1) {
      const api = shared.apis[i % 2] as string;
      const res = await fetch(`${api}/roles`, { headers });
      statuses.push(res.status);
      remaining.push(res.headers.get('ratelimit') ?? '');
    }
    expect(statuses.slice(0, 6).every((status) => status !== 429)).toBe(true);
    expect(statuses[6]).toBe(429);
    expect(remaining.slice(0, 6).map((line) => /r=(\d+)/.exec(line)?.[1])).toEqual([
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
    ]);
  });

  it('shares the login budget too, and says when to retry', async () => {
    const login = (api: string) =>
      fetch(`${api}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'nobody@example.com', password: 'wrong-password' }),
      });
    expect((await login(shared.apis[0] as string)).status).toBe(401);
    expect((await login(shared.apis[1] as string)).status).toBe(401);
    const third = await login(shared.apis[0] as string);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.headers.get('content-type')).toMatch(/problem\+json/);
  });
});
