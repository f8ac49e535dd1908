import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Options of {@link fixedWindowLimiter}. */
export interface FixedWindowOptions {
  /** Requests a key may make per window. */
  limit: number;
  windowMs: number;
  /** The policy's name in the RateLimit headers (`"default"`, `"login"`). */
  identifier: string;
  /** Whose budget a request spends. */
  key: (req: Request) => string;
  /** Requests that neither count nor carry this policy's headers. */
  skip: (req: Request) => boolean;
  /** Answers a request over the limit; `resetAtMs` is when its key's window ends. */
  onLimited: (req: Request, res: Response, resetAtMs: number) => void;
}

interface Client {
  hits: number;
  resetAtMs: number;
  /** The `pk` of RateLimit-Policy, derived once per key. */
  partitionKey: string;
}

/**
 * A per-key fixed-window rate limiter with the IETF RateLimit headers (draft 8), behaving as
 * express-rate-limit 8 with its memory store did here: a key's window opens at its first
 * request and lasts `windowMs`; every counted answer carries
 * `RateLimit: "<id>"; r=<remaining>; t=<seconds to reset>` and
 * `RateLimit-Policy: "<id>"; q=<limit>; w=<window s>; pk=:<partition key>:`; the request that
 * exceeds the limit gets `Retry-After` and is answered by `onLimited`. Keys idle for a whole
 * window are forgotten (two generations, swapped every window). Synchronous: the library's
 * chain of awaits, validations and a SHA-256 per request cost more than the rest of a read.
 *
 * @example
 * app.use(fixedWindowLimiter({ limit: 1000, windowMs: 60_000, identifier: 'default', key, skip, onLimited }));
 */
export function fixedWindowLimiter(options: FixedWindowOptions): RequestHandler {
  const { limit, windowMs, identifier } = options;
  const windowSeconds = Math.ceil(windowMs / 1000);
  let current = new Map<string, Client>();
  let previous = new Map<string, Client>();
  setInterval(() => {
    previous = current;
    current = new Map();
  }, windowMs).unref();

  const clientOf = (key: string, now: number): Client => {
    let client = current.get(key);
    if (client === undefined) {
      client = previous.get(key);
      if (client !== undefined) previous.delete(key);
      else client = { hits: 0, resetAtMs: now + windowMs, partitionKey: partitionKey(key) };
      current.set(key, client);
    }
    return client;
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (options.skip(req)) return next();
    const now = Date.now();
    const client = clientOf(options.key(req), now);
    if (client.resetAtMs <= now) {
      client.hits = 0;
      client.resetAtMs = now + windowMs;
    }
    client.hits += 1;
    const resetSeconds = Math.max(0, Math.ceil((client.resetAtMs - now) / 1000));
    const remaining = Math.max(limit - client.hits, 0);
    append(res, 'RateLimit', `"${identifier}"; r=${remaining}; t=${resetSeconds}`);
    append(
      res,
      'RateLimit-Policy',
      `"${identifier}"; q=${limit}; w=${windowSeconds}; pk=:${client.partitionKey}:`,
    );
    if (client.hits <= limit) return next();
    res.setHeader('Retry-After', String(resetSeconds));
    options.onLimited(req, res, client.resetAtMs);
  };
}

/** A second policy adds a second header line, as Express's `res.append` does. */
function append(res: Response, name: string, value: string): void {
  const previous = res.getHeader(name);
  if (previous === undefined) res.setHeader(name, value);
  else
    res.setHeader(name, Array.isArray(previous) ? [...previous, value] : [String(previous), value]);
}

/** What express-rate-limit sends as `pk`: base64 of the first 12 hex digits of SHA-256(key). */
function partitionKey(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex').slice(0, 12);
  return Buffer.from(hex).toString('base64');
}
