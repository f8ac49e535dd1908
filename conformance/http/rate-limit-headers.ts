/** What one answer said about one rate-limit policy. */
export interface RateLimitReading {
  /** The policy's name (`"default"`, `"login"`), or `''` when the headers name none. */
  policy: string;
  /** The partition key (`pk`) when the target names it: whose budget the request spent. */
  partition?: string;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** Requests a window allows, when the answer says. */
  quota?: number;
  /** The window's length in seconds, when the answer says. */
  windowSeconds?: number;
}

/**
 * Reads the rate limits an answer reports, in the forms targets send today:
 * - IETF draft 8 and later: `RateLimit: "default"; r=999; t=60` with
 *   `RateLimit-Policy: "default"; q=1000; w=60; pk=:abc=:` (one item per policy);
 * - draft 7: `RateLimit: limit=1000, remaining=999, reset=60` (+ `RateLimit-Policy: 1000;w=60`);
 * - drafts up to 6 and the common de facto headers: `RateLimit-Limit`/`-Remaining`/`-Reset`,
 *   `X-RateLimit-Limit`/`-Remaining`/`-Reset` (reset in seconds, or an epoch time).
 * An answer without any of them yields nothing: the target did not say it limits.
 *
 * @example
 * readRateLimits(headers); // [{ policy: 'default', partition: 'abc=', remaining: 999, resetSeconds: 60, quota: 1000, windowSeconds: 60 }]
 */
export function readRateLimits(
  headers: { get(name: string): string | null },
  nowMs = Date.now(),
): RateLimitReading[] {
  const limit = headers.get('ratelimit');
  const policyHeader = headers.get('ratelimit-policy');
  if (limit !== null && /(^|[;,\s])r\s*=/.test(limit)) return readDraft8(limit, policyHeader);
  if (limit !== null && /remaining\s*=/.test(limit)) {
    const params = parameters(limit.replace(/,/g, ';'));
    const quota = numberOf(params.limit);
    const windowSeconds = numberOf(parameters(policyHeader ?? '').w);
    return reading('', numberOf(params.remaining), numberOf(params.reset), quota, windowSeconds);
  }
  for (const prefix of ['ratelimit-', 'x-ratelimit-']) {
    const remaining = numberOf(headers.get(`${prefix}remaining`) ?? undefined);
    if (remaining === undefined) continue;
    let reset = numberOf(headers.get(`${prefix}reset`) ?? undefined);
    // Some targets send the reset as a Unix time rather than a number of seconds.
    if (reset !== undefined && reset > 1e9) reset = Math.max(0, Math.ceil(reset - nowMs / 1000));
    return reading('', remaining, reset, numberOf(headers.get(`${prefix}limit`) ?? undefined));
  }
  return [];
}

function readDraft8(limit: string, policyHeader: string | null): RateLimitReading[] {
  const policies = new Map<string, Record<string, string>>();
  for (const item of items(policyHeader ?? '')) policies.set(item.name, item.params);
  const readings: RateLimitReading[] = [];
  for (const { name, params } of items(limit)) {
    const policy = policies.get(name) ?? {};
    const partition = params.pk ?? policy.pk;
    readings.push(
      ...reading(
        name,
        numberOf(params.r),
        numberOf(params.t),
        numberOf(policy.q),
        numberOf(policy.w),
        partition?.replace(/^:|:$/g, ''),
      ),
    );
  }
  return readings;
}

function reading(
  policy: string,
  remaining: number | undefined,
  resetSeconds: number | undefined,
  quota?: number,
  windowSeconds?: number,
  partition?: string,
): RateLimitReading[] {
  if (remaining === undefined) return [];
  return [
    {
      policy,
      remaining,
      // A target that names no reset is assumed to refill within a minute (the common window).
      resetSeconds: resetSeconds ?? windowSeconds ?? 60,
      ...(partition ? { partition } : {}),
      ...(quota !== undefined ? { quota } : {}),
      ...(windowSeconds !== undefined ? { windowSeconds } : {}),
    },
  ];
}

/** Items of a structured-field list: `"name"; a=1; b=2, "other"; a=3`. */
function items(value: string): { name: string; params: Record<string, string> }[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [first = '', ...rest] = item.split(';');
      return { name: first.trim().replace(/^"|"$/g, ''), params: parameters(rest.join(';')) };
    });
}

function parameters(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim().toLowerCase()] = part.slice(at + 1).trim();
  }
  return out;
}

function numberOf(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value.replace(/^"|"$/g, ''));
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
