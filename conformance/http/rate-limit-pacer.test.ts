import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialOf } from './rate-limit-pacer.js';
import { TargetClient, WaitInterruptedError } from './target-client.js';

/**
 * A target with the reference server's kind of limits, on a short window so a test can cross
 * several: a fixed window per key (the bearer token's value, else the address), draft-8
 * headers on every answer, and a second, tighter policy on POST /login.
 */
const WINDOW_MS = 1000;
const QUOTA = 6;
const LOGIN_QUOTA = 2;

interface Window {
  hits: number;
  resetAt: number;
}
const windows = new Map<string, Window>();
let answered429 = 0;
let server: Server;
let baseUrl: string;

function spend(key: string, quota: number, name: string, now: number) {
  let w = windows.get(key);
  if (!w || w.resetAt <= now) windows.set(key, (w = { hits: 0, resetAt: now + WINDOW_MS }));
  w.hits++;
  const t = Math.max(0, Math.ceil((w.resetAt - now) / 1000));
  return {
    ok: w.hits <= quota,
    limit: `"${name}"; r=${Math.max(0, quota - w.hits)}; t=${t}`,
    policy: `"${name}"; q=${quota}; w=${WINDOW_MS / 1000}; pk=:${Buffer.from(key).toString('base64')}:`,
    t,
  };
}

function answer(req: IncomingMessage) {
  const now = Date.now();
  const who = req.headers.authorization ?? 'address';
  const spent = [spend(`default ${who}`, QUOTA, 'default', now)];
  if (req.method === 'POST' && req.url === '/api/login')
    spent.unshift(spend('login address', LOGIN_QUOTA, 'login', now));
  return spent;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const spent = answer(req);
    res.setHeader('RateLimit', spent.map((s) => s.limit).join(', '));
    res.setHeader('RateLimit-Policy', spent.map((s) => s.policy).join(', '));
    const over = spent.find((s) => !s.ok);
    if (over) {
      answered429++;
      res.setHeader('Retry-After', String(over.t));
      res.writeHead(429).end();
    } else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('TargetClient pacing to RateLimit headers', () => {
  it('sends more requests than a window allows without a single 429, one pause per window', async () => {
    answered429 = 0;
    windows.clear();
    const paces: number[] = [];
    const waits: number[] = [];
    const client = new TargetClient({
      baseUrl,
      concurrency: 4,
      onPace: (event) => paces.push(event.untilMs),
      onWait: (seconds) => waits.push(seconds),
    });
    const started = Date.now();
    const sends = Array.from({ length: 3 * QUOTA }, (_, i) =>
      client.send({ method: 'GET', path: `/items/${i}`, route: 'GET /items/{id}' }),
    );
    const statuses = (await Promise.all(sends)).map((e) => e.response.status);
    await client.close();
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(answered429).toBe(0);
    expect(waits).toEqual([]);
    // Three windows' worth: at least two resets waited for, each announced once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * WINDOW_MS - 200);
    expect(paces.length).toBeGreaterThanOrEqual(2);
    expect(paces.length).toBeLessThanOrEqual(4);
    expect(client.rateLimits.map((b) => [b.policy, b.quota, b.windowSeconds])).toEqual([
      ['default', QUOTA, 1],
    ]);
  });

  it('paces a route by the tighter policy it also spends, and other credentials by their own', async () => {
    answered429 = 0;
    windows.clear();
    const client = new TargetClient({ baseUrl, concurrency: 4 });
    const login = () => client.send({ method: 'POST', path: '/login', route: 'POST /login' });
    const asUser = (i: number) =>
      client.send({
        method: 'GET',
        path: `/items/${i}`,
        route: 'GET /items/{id}',
        headers: { Authorization: 'Bearer user-token' },
      });
    await login(); // learns that POST /login spends "login" as well as "default"
    const started = Date.now();
    const statuses = (
      await Promise.all([login(), login(), login(), asUser(1), asUser(2), asUser(3)])
    ).map((e) => e.response.status);
    await client.close();
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(answered429).toBe(0);
    // Two logins a window: the third and fourth wait for the next one.
    expect(Date.now() - started).toBeGreaterThanOrEqual(WINDOW_MS - 300);
  });

  it('gives up a wait at once when told the run is stopping, and waits again after', async () => {
    const spent = createServer((_req, res) =>
      res
        .writeHead(200, {
          RateLimit: '"default"; r=0; t=30',
          'RateLimit-Policy': '"default"; q=5; w=30',
        })
        .end('{}'),
    );
    await new Promise<void>((resolve) => spent.listen(0, '127.0.0.1', resolve));
    const client = new TargetClient({
      baseUrl: `http://127.0.0.1:${(spent.address() as AddressInfo).port}`,
    });
    await client.send({ method: 'GET', path: '/a' }); // learns: nothing left for 30 s
    const started = Date.now();
    const waiting = client.send({ method: 'GET', path: '/b' });
    setTimeout(() => client.interruptWaits(), 200);
    await expect(waiting).rejects.toBeInstanceOf(WaitInterruptedError);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(client.send({ method: 'GET', path: '/c' })).rejects.toBeInstanceOf(
      WaitInterruptedError,
    );
    client.resumeWaits();
    const again = client.send({ method: 'GET', path: '/d' });
    const outcome = await Promise.race([
      again.then(() => 'sent'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 500)),
    ]);
    expect(outcome).toBe('still waiting');
    client.interruptWaits();
    await expect(again).rejects.toBeInstanceOf(WaitInterruptedError);
    await client.close();
    await new Promise<void>((resolve) => spent.close(() => resolve()));
  });

  it('does not slow down a target that announces no limit', async () => {
    const plain = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const client = new TargetClient({
      baseUrl: `http://127.0.0.1:${(plain.address() as AddressInfo).port}`,
    });
    const started = Date.now();
    for (let i = 0; i < 50; i++) await client.send({ method: 'GET', path: '/' });
    await client.close();
    await new Promise<void>((resolve) => plain.close(() => resolve()));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(client.rateLimits).toEqual([]);
  });
});

describe('credentialOf', () => {
  it('keys a JWT by its claimed subject, other values by themselves, none by none', () => {
    const jwt = (claims: object) =>
      `Bearer e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
    expect(credentialOf(jwt({ sub: '2' }))).toBe('sub:2');
    expect(credentialOf(jwt({ sub: '2', exp: 1 }))).toBe('sub:2');
    expect(credentialOf('Bearer not-a-jwt')).toBe('opaque:Bearer not-a-jwt');
    expect(credentialOf(undefined)).toBe('none');
  });
});
