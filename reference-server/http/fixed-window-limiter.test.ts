import type { Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixedWindowLimiter } from './fixed-window-limiter.js';

/** A response that records headers as Express would (append makes a list). */
function fakeResponse() {
  const headers = new Map<string, string | string[]>();
  const res = {
    headersSent: false,
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader: (name: string, value: string | string[]) => {
      headers.set(name.toLowerCase(), value);
      return res;
    },
    append: (name: string, value: string) => {
      const previous = headers.get(name.toLowerCase());
      headers.set(
        name.toLowerCase(),
        previous === undefined
          ? value
          : Array.isArray(previous)
            ? [...previous, value]
            : [previous, value],
      );
      return res;
    },
  };
  return { res: res as unknown as Response, headers };
}

/** Runs one request through a middleware: 'next' or 'limited', and the headers it set. */
async function run(handler: RequestHandler, key: string) {
  const { res, headers } = fakeResponse();
  const req = {
    key,
    ip: '127.0.0.1',
    headers: {},
    app: { get: () => false },
  } as unknown as Request;
  const outcome = await new Promise<string>((resolve) => {
    limited = () => resolve('limited');
    void handler(req, res, () => resolve('next'));
  });
  return { outcome, headers: Object.fromEntries(headers) };
}

let limited: () => void = () => {};
const common = { limit: 3, windowMs: 60_000, identifier: 'default' };

function ours() {
  return fixedWindowLimiter({
    ...common,
    key: (req) => (req as Request & { key: string }).key,
    skip: () => false,
    onLimited: () => limited(),
  });
}

function theirs() {
  return rateLimit({
    ...common,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => (req as Request & { key: string }).key,
    validate: false,
    handler: () => limited(),
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('fixedWindowLimiter', () => {
  it('counts, answers and sets the headers exactly as express-rate-limit 8 did', async () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00.000Z'), toFake: ['Date'] });
    const a = ours();
    const b = theirs();
    const keys = ['sub:1', 'sub:1', 'sub:2', 'sub:1', 'sub:1', 'sub:2', 'sub:2', 'sub:2'];
    for (const [i, key] of keys.entries()) {
      vi.setSystemTime(new Date('2030-01-01T00:00:00.000Z').getTime() + i * 7_300);
      expect(await run(a, key), `request ${i} (${key})`).toEqual(await run(b, key));
    }
    // A new window once the old one is over.
    vi.setSystemTime(new Date('2030-01-01T00:02:00.000Z'));
    expect(await run(a, 'sub:1')).toEqual(await run(b, 'sub:1'));
    expect((await run(a, 'sub:1')).headers['ratelimit']).toBe('"default"; r=1; t=60');
  });

  it('adds a second line for a second policy, as res.append did', async () => {
    const login = fixedWindowLimiter({
      ...common,
      identifier: 'login',
      key: () => '127.0.0.1',
      skip: () => false,
      onLimited: () => limited(),
    });
    const { res, headers } = fakeResponse();
    const req = {} as Request;
    login(req, res, () => {});
    ours()(Object.assign(req, { key: 'sub:9' }), res, () => {});
    expect(headers.get('ratelimit')).toEqual(['"login"; r=2; t=60', '"default"; r=2; t=60']);
  });

  it('leaves skipped requests alone', async () => {
    const handler = fixedWindowLimiter({
      ...common,
      key: () => 'k',
      skip: () => true,
      onLimited: () => limited(),
    });
    for (let i = 0; i < 5; i++)
      expect(await run(handler, 'k')).toEqual({ outcome: 'next', headers: {} });
  });

  it('waits for a counter that answers later, and lets a request through when counting fails', async () => {
    let failing = false;
    const handler = fixedWindowLimiter({
      ...common,
      key: () => 'shared',
      skip: () => false,
      onLimited: () => limited(),
      counter: {
        hit: async () => {
          if (failing) throw new Error('database down');
          return { hits: 4, resetInMs: 30_000 };
        },
      },
    });
    const over = await run(handler, 'x');
    expect(over.outcome).toBe('limited');
    expect(over.headers['retry-after']).toBe('30');
    failing = true;
    const uncounted = await run(handler, 'x');
    expect(uncounted.outcome).toBe('next');
    expect(uncounted.headers.ratelimit).toBeUndefined();
  });
});
