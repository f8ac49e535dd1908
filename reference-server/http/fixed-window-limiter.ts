import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { memoryWindowCounter, type WindowCounter, type WindowHit } from './window-counter.js';

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
  /** Where the counts live (default: this process's memory). */
  counter?: WindowCounter;
}

/**
 * A per-key fixed-window rate limiter with the IETF RateLimit headers (draft 8), behaving as
 * express-rate-limit 8 with its memory store did here: a key's window opens at its first
 * request and lasts `windowMs`; every counted answer carries
 * `RateLimit: "<id>"; r=<remaining>; t=<seconds to reset>` and
 * `RateLimit-Policy: "<id>"; q=<limit>; w=<window s>; pk=:<partition key>:`; the request that
 * exceeds the limit gets `Retry-After` and is answered by `onLimited`. The counts live in
 * `counter` (this process's memory by default). Synchronous with the memory counter: the
 * library's chain of awaits, validations and a SHA-256 per request cost more than the rest
 * of a read.
 *
 * @example
 * app.use(fixedWindowLimiter({ limit: 1000, windowMs: 60_000, identifier: 'default', key, skip, onLimited }));
 */
export function fixedWindowLimiter(options: FixedWindowOptions): RequestHandler {
  const { limit, windowMs, identifier } = options;
  const windowSeconds = Math.ceil(windowMs / 1000);
  const counter = options.counter ?? memoryWindowCounter(windowMs);
  const partitionKeys = partitionKeyCache(windowMs);

  const answer = (req: Request, res: Response, next: NextFunction, key: string, hit: WindowHit) => {
    const resetSeconds = Math.max(0, Math.ceil(hit.resetInMs / 1000));
    const remaining = Math.max(limit - hit.hits, 0);
    append(res, 'RateLimit', `"${identifier}"; r=${remaining}; t=${resetSeconds}`);
    append(
      res,
      'RateLimit-Policy',
      `"${identifier}"; q=${limit}; w=${windowSeconds}; pk=:${partitionKeys(key)}:`,
    );
    if (hit.hits <= limit) return next();
    res.setHeader('Retry-After', String(resetSeconds));
    options.onLimited(req, res, Date.now() + hit.resetInMs);
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (options.skip(req)) return next();
    const key = options.key(req);
    const hit = counter.hit(key);
    if (!(hit instanceof Promise)) return answer(req, res, next, key, hit);
    hit.then(
      (shared) => answer(req, res, next, key, shared),
      // Counting failed (the database is down): the request goes on uncounted; the store's
      // own 503 answers it if it needs the database.
      () => next(),
    );
  };
}

/** `pk` per key, derived once a window (a SHA-256 per request costs more than the read). */
function partitionKeyCache(windowMs: number): (key: string) => string {
  let current = new Map<string, string>();
  let previous = new Map<string, string>();
  setInterval(() => {
    previous = current;
    current = new Map();
  }, windowMs).unref();
  return (key) => {
    let pk = current.get(key);
    if (pk === undefined) {
      pk = previous.get(key) ?? partitionKey(key);
      current.set(key, pk);
    }
    return pk;
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
