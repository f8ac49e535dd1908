import { readRateLimits, type RateLimitReading } from './rate-limit-headers.js';

/** One policy's budget as the target last reported it. */
export interface PolicyBudget {
  /** `default`, `login`, … (`''` when the target names none). */
  policy: string;
  quota: number | undefined;
  windowSeconds: number | undefined;
  remaining: number;
  /** When the window resets (ms since the epoch), as the target last said. */
  resetAtMs: number;
  /** Requests sent under this policy that have not been answered yet. */
  inFlight: number;
}

/** The pacer holds requests back until `untilMs`, because `budget` is spent. */
export interface PaceEvent {
  budget: PolicyBudget;
  untilMs: number;
}

/** Which budget a request spends, as far as the client can tell before sending it. */
export interface RequestClass {
  /** Whose credentials: the token's claimed subject, `'none'`, or the opaque value. */
  who: string;
  /** The operation (`POST /auth/login`). */
  route: string;
}

/** Read slack: a window counted to end at second t is waited out this much longer. */
const RESET_MARGIN_MS = 250;

/**
 * Paces a client to the rate limits its target announces (IETF RateLimit headers and their
 * older forms), so that a run never meets a 429 it could have foreseen. Every answer updates
 * the budgets it reports; before a request goes out, the policies it is expected to spend are
 * looked up (learned per credential and operation from earlier answers, since a login may
 * count against a login policy as well as the default one) and the request waits while any
 * of them has nothing left beyond the requests already in flight. A target that sends no
 * such headers is never slowed down.
 *
 * @example
 * const ticket = await pacer.acquire({ who: 'sub:2', route: 'GET /users' });
 * const exchange = await send();
 * pacer.settle(ticket, exchange.headers);
 */
export class RateLimitPacer {
  private readonly budgets = new Map<string, PolicyBudget>();
  /** The budgets an operation sent with one credential was seen to spend. */
  private readonly byClass = new Map<string, string[]>();
  /** The budgets every answer to one credential carried so far (for its new operations). */
  private readonly byWho = new Map<string, string[]>();
  private holding: PaceEvent | undefined;
  /**
   * Credentials whose first request is still unanswered: the others of that credential wait
   * for it, so that a burst cannot spend a budget the client does not know of yet.
   */
  private readonly learning = new Map<string, { done: Promise<void>; release: () => void }>();
  private readonly answered = new Set<string>();

  constructor(
    private readonly options: {
      /** Told once per wait that starts, so the caller can say why the run pauses. */
      onPace?: (event: PaceEvent) => void;
      /** Told about every policy the first time the target names it. */
      onPolicy?: (budget: PolicyBudget) => void;
      now?: () => number;
      sleep?: (ms: number) => Promise<void>;
    } = {},
  ) {}

  /** The budgets known so far, for the run's summary. */
  get known(): PolicyBudget[] {
    return [...this.budgets.values()];
  }

  /** Waits until every budget the request is expected to spend has room, and books it. */
  async acquire(request: RequestClass): Promise<string[]> {
    const now = this.options.now ?? Date.now;
    if (!this.answered.has(request.who)) {
      const first = this.learning.get(request.who);
      if (first) await first.done;
      else {
        let release = () => {};
        const done = new Promise<void>((resolve) => (release = resolve));
        this.learning.set(request.who, { done, release });
      }
    }
    for (;;) {
      const keys =
        this.byClass.get(classKey(request)) ??
        this.byWho.get(request.who) ??
        // An unknown credential is most likely counted by address, like no credential.
        this.byWho.get('none') ??
        [];
      const at = now();
      let waitUntil = 0;
      let blocking: PolicyBudget | undefined;
      for (const key of keys) {
        const budget = this.budgets.get(key);
        if (!budget) continue;
        if (budget.resetAtMs <= at && budget.quota !== undefined) {
          // The window is over: the target will open a new one at the next request.
          budget.remaining = budget.quota;
          budget.resetAtMs = at + (budget.windowSeconds ?? 60) * 1000;
        }
        if (budget.remaining - budget.inFlight <= 0 && budget.resetAtMs > waitUntil) {
          waitUntil = budget.resetAtMs;
          blocking = budget;
        }
      }
      if (!blocking) {
        for (const key of keys) {
          const budget = this.budgets.get(key);
          if (budget) budget.inFlight++;
        }
        return keys;
      }
      const until = waitUntil + RESET_MARGIN_MS;
      if (!this.holding || this.holding.untilMs < until - 1000) {
        this.holding = { budget: blocking, untilMs: until };
        this.options.onPace?.(this.holding);
      }
      await (this.options.sleep ?? sleep)(Math.max(50, until - at));
    }
  }

  /**
   * Takes in what an answer says about the budgets (none when `headers` is undefined, as for a
   * request that got no answer) and releases the booking `acquire` made.
   */
  settle(
    request: RequestClass,
    booked: string[],
    headers: { get(name: string): string | null } | undefined,
    status?: number,
  ): void {
    const at = (this.options.now ?? Date.now)();
    for (const key of booked) {
      const budget = this.budgets.get(key);
      if (budget) budget.inFlight = Math.max(0, budget.inFlight - 1);
    }
    this.learn(request, booked, headers, status, at);
    // Without an answer (a timeout) the next request of the credential tries to learn instead.
    if (headers) this.answered.add(request.who);
    this.learning.get(request.who)?.release();
    this.learning.delete(request.who);
  }

  private learn(
    request: RequestClass,
    booked: string[],
    headers: { get(name: string): string | null } | undefined,
    status: number | undefined,
    at: number,
  ): void {
    if (!headers) return;
    const readings = readRateLimits(headers, at);
    const keys = readings.map((r) => this.update(r, request, at));
    if (status === 429) {
      const retryAfter = Number(headers.get('retry-after'));
      // A 429 despite the pacing (another client shares the budget): nothing is left.
      for (const key of keys.length ? keys : booked) {
        const budget = this.budgets.get(key);
        if (!budget) continue;
        budget.remaining = 0;
        if (Number.isFinite(retryAfter) && retryAfter > 0)
          budget.resetAtMs = Math.max(budget.resetAtMs, at + retryAfter * 1000);
      }
    }
    if (keys.length === 0) return;
    this.byClass.set(classKey(request), keys);
    const common = this.byWho.get(request.who);
    this.byWho.set(request.who, common ? common.filter((k) => keys.includes(k)) : keys);
  }

  private update(reading: RateLimitReading, request: RequestClass, at: number): string {
    // Without a partition key, assume each credential has its own budget.
    const key = `${reading.policy} ${reading.partition ?? request.who}`;
    const resetAtMs = at + reading.resetSeconds * 1000;
    const budget = this.budgets.get(key);
    if (!budget) {
      const fresh: PolicyBudget = {
        policy: reading.policy,
        quota: reading.quota,
        windowSeconds: reading.windowSeconds,
        remaining: reading.remaining,
        resetAtMs,
        inFlight: 0,
      };
      this.budgets.set(key, fresh);
      this.options.onPolicy?.(fresh);
      return key;
    }
    budget.quota = reading.quota ?? budget.quota;
    budget.windowSeconds = reading.windowSeconds ?? budget.windowSeconds;
    // Answers overtake each other: within one window the lowest count is the newest. A reset
    // more than two seconds later than the one known means a new window.
    if (resetAtMs > budget.resetAtMs + 2000) {
      budget.remaining = reading.remaining;
      budget.resetAtMs = resetAtMs;
    } else {
      budget.remaining = Math.min(budget.remaining, reading.remaining);
      budget.resetAtMs = Math.max(budget.resetAtMs, resetAtMs);
    }
    return key;
  }
}

/**
 * Whose budget a request spends, read from its Authorization header: a JWT's claimed subject
 * (servers key by it without verifying, so a tampered token of the user spends the user's),
 * else the value itself, else `'none'`.
 */
export function credentialOf(authorization: string | undefined): string {
  if (!authorization) return 'none';
  const payload = /^Bearer\s+[^.\s]+\.([^.\s]+)\./i.exec(authorization)?.[1];
  if (payload) {
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        sub?: unknown;
      };
      if (typeof claims.sub === 'string' || typeof claims.sub === 'number')
        return `sub:${claims.sub}`;
    } catch {
      // not a JWT after all: keyed by its value below
    }
  }
  return `opaque:${authorization}`;
}

const classKey = (request: RequestClass) => `${request.who} ${request.route}`;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
