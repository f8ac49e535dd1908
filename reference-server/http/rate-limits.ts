import type { Request, RequestHandler, Response } from 'express';
import { clientAddressKey } from './client-address-key.js';
import { fixedWindowLimiter } from './fixed-window-limiter.js';
import type { WindowCounter } from './window-counter.js';
import { ApiProblem } from '../../core/domain/api-problem.js';
import { renderProblem } from '../../core/pipeline/problem-response.js';
import { API_BASE, apiRelativePath } from '../../core/pipeline/api-paths.js';

export interface RateLimitOptions {
  /** Requests a minute per token subject (per address without a token); 0 turns it off. */
  perMinute: number;
  /** Login attempts a minute per address; 0 turns it off. */
  loginPerMinute: number;
  /**
   * Where a policy's counts live: this process's memory by default; PostgreSQL's when the
   * store is, so that every instance spends one budget (decision 0086).
   */
  counters?: (policy: string, windowMs: number) => WindowCounter;
}

/**
 * The contract's rate limits (a fixed window per key, as express-rate-limit's memory store
 * counted them before, decision 0028): IETF RateLimit and RateLimit-Policy
 * headers (draft 8) on every response under /api, and 429 problem+json with Retry-After when
 * exceeded. The subject is read from the token without verifying it: a forged token is
 * refused with 401 anyway, and counting it under its claimed subject costs that subject
 * nothing it would not pay for its own requests.
 */
export function rateLimits(options: RateLimitOptions): RequestHandler[] {
  const handlers: RequestHandler[] = [];
  const limiter = (o: LimiterOptions) => policyLimiter(o, options.counters);
  if (options.loginPerMinute > 0) {
    handlers.push(
      limiter({
        limit: options.loginPerMinute,
        identifier: 'login',
        key: (req) => clientAddressKey(req.ip ?? 'unknown'),
        skip: (req) => req.method !== 'POST' || apiRelativePath(req.path) !== '/auth/login',
      }),
    );
  }
  if (options.perMinute > 0) {
    handlers.push(
      limiter({
        limit: options.perMinute,
        identifier: 'default',
        key: (req) => tokenSubject(req) ?? clientAddressKey(req.ip ?? 'unknown'),
        // Preflights carry no token and must not eat into a client's budget.
        skip: (req) => req.method === 'OPTIONS' || !req.path.startsWith('/api/'),
      }),
    );
  }
  return handlers;
}

interface LimiterOptions {
  limit: number;
  identifier: string;
  key: (req: Request) => string;
  skip: (req: Request) => boolean;
}

const WINDOW_MS = 60_000;

function policyLimiter(o: LimiterOptions, counters: RateLimitOptions['counters']): RequestHandler {
  return fixedWindowLimiter({
    limit: o.limit,
    windowMs: WINDOW_MS,
    ...(counters ? { counter: counters(o.identifier, WINDOW_MS) } : {}),
    identifier: o.identifier,
    key: o.key,
    skip: o.skip,
    onLimited: (req: Request, res: Response, resetAtMs: number) => {
      const retryAfter = Math.max(1, Math.ceil((resetAtMs - Date.now()) / 1000));
      const relative = apiRelativePath(req.path);
      const problem = new ApiProblem(
        'rate-limited',
        `Rate limit exceeded (${o.limit} requests a minute); retry in ${retryAfter} s`,
        {
          headers: { 'Retry-After': String(retryAfter) },
        },
      );
      const requestId = String(res.getHeader('X-Request-Id') ?? crypto.randomUUID());
      const rendered = renderProblem(
        problem,
        relative === undefined ? req.path : API_BASE + relative,
        requestId,
      );
      res
        .status(rendered.status)
        .set(rendered.headers)
        .set('X-Request-Id', requestId)
        .send(rendered.body);
    },
  });
}

/** Subjects of recently seen Authorization values: a client sends the same one many times. */
const subjects = new Map<string, string | undefined>();
const MAX_SUBJECTS = 10_000;

function tokenSubject(req: Request): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization === undefined) return undefined;
  if (subjects.has(authorization)) return subjects.get(authorization);
  const subject = readSubject(authorization);
  if (subjects.size >= MAX_SUBJECTS) subjects.delete(subjects.keys().next().value as string);
  subjects.set(authorization, subject);
  return subject;
}

function readSubject(authorization: string): string | undefined {
  const match = /^Bearer\s+[^.]+\.([^.]+)\./i.exec(authorization);
  if (!match) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(match[1] as string, 'base64url').toString('utf8')) as {
      sub?: unknown;
    };
    return typeof claims.sub === 'string' && claims.sub.length <= 32
      ? `sub:${claims.sub}`
      : undefined;
  } catch {
    return undefined;
  }
}
