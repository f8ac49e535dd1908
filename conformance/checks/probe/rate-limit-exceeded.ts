import { readRateLimits } from '../../http/rate-limit-headers.js';
import { TargetClient, type Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ScenarioCheck } from '../check.js';
import { pairProblems } from '../response/rate-limit-headers.js';
import { describeResponse } from '../support/probe-support.js';

/** The most attempts the check spends on a budget; a larger one is left alone. */
const MAX_ATTEMPTS = 200;

/** What is wrong with a 429: Retry-After in seconds, the RateLimit pair, a problem. */
function judge429(exchange: Exchange): string[] {
  const problems: string[] = [];
  const retryAfter = exchange.headers.get('retry-after');
  if (retryAfter === null || !/^\d+$/.test(retryAfter.trim()))
    problems.push(
      `Retry-After is ${retryAfter === null ? 'missing' : `not integer seconds (${retryAfter})`}`,
    );
  problems.push(
    ...pairProblems(exchange.headers.get('ratelimit'), exchange.headers.get('ratelimit-policy')),
  );
  const type = (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (type !== 'application/problem+json')
    problems.push(`the body is ${type || 'untyped'}, not a problem`);
  return problems;
}

/** Sends the login body until a 429 or `attempts` more answers; the last answer. */
async function spend(client: TargetClient, path: string, body: string, attempts: number) {
  let last: Exchange | undefined;
  for (let i = 0; i < attempts; i++) {
    last = await client.send({
      method: 'POST',
      path,
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body,
    });
    if (last.response.status === 429 || last.response.status >= 500) break;
  }
  return last!;
}

async function provoke(
  ctx: RunContext,
  client: TargetClient,
  record: Parameters<ScenarioCheck['run']>[1],
) {
  const login = ctx.auth.loginOperation!;
  const body = JSON.stringify(ctx.generate.positiveBodies(login, 1)[0] ?? {});
  const first = await spend(client, login.path, body, 1);
  const readings = readRateLimits(first.headers).sort((a, b) => a.remaining - b.remaining);
  const budget = readings[0];
  if (!budget)
    return record.skip(
      login,
      `${login.path} reports no rate limit (RateLimit headers): nothing to provoke`,
    );
  if (budget.remaining >= MAX_ATTEMPTS)
    return record.skip(
      login,
      `the ${budget.policy || 'login'} budget has ${budget.remaining} left: more than ${MAX_ATTEMPTS} attempts`,
    );
  const over =
    first.response.status === 429
      ? first
      : await spend(client, login.path, body, budget.remaining + 1);
  const failure = (f: CheckFailure) => record.fail(login, f, over);
  if (over.response.status !== 429)
    return failure({
      message: `${budget.remaining + 2} attempts at ${login.path} after the answer said ${budget.remaining} were left: no 429`,
      expected: `429 once the "${budget.policy}" budget (${budget.quota ?? '?'} a window) is spent`,
      actual: `${describeResponse(over)}; RateLimit: ${over.headers.get('ratelimit') ?? '(none)'}`,
    });
  const problems = judge429(over);
  if (problems.length > 0)
    return failure({
      message: `the 429 of ${login.path} does not say when to retry: ${problems.join('; ')}`,
      expected:
        '429 application/problem+json with Retry-After (integer seconds), RateLimit and RateLimit-Policy',
      actual: `Retry-After: ${over.headers.get('retry-after') ?? '(none)'}; RateLimit: ${over.headers.get('ratelimit') ?? '(none)'}; RateLimit-Policy: ${over.headers.get('ratelimit-policy') ?? '(none)'}`,
    });
  record.pass(
    login,
    `the "${budget.policy}" budget spent: 429 with Retry-After ${over.headers.get('retry-after')} and the RateLimit headers`,
  );
}

/**
 * `rate_limit_exceeded`, only with --provoke-rate-limits, the last check of a run: the login
 * operation's budget (the smallest its RateLimit headers report, at most 200 left), spent with
 * the login body of the run's generator, ends in 429 with `Retry-After` in integer seconds,
 * `RateLimit` and `RateLimit-Policy`, as a problem. The login budget is the one to spend: it is
 * counted apart from the operations' (per address, not per token), so the run's own tokens keep
 * working while it lasts; nobody at the address can log in until the window ends.
 */
export const rateLimitExceeded: ScenarioCheck = {
  kind: 'scenario',
  name: 'rate_limit_exceeded',
  description:
    'With --provoke-rate-limits, last: the login budget spent ends in 429 with Retry-After and the RateLimit headers',
  async run(ctx, record) {
    if (!ctx.options.provokeRateLimits)
      return record.skip(
        undefined,
        'spends the login budget: pass --provoke-rate-limits to let it',
      );
    if (!ctx.auth.loginOperation)
      return record.skip(undefined, 'the spec names no login operation');
    const client = new TargetClient({
      baseUrl: ctx.client.origin + ctx.client.basePath,
      headers: ctx.client.extraHeaders,
      concurrency: 1,
      pace: false,
      retries429: 0,
    });
    try {
      await provoke(ctx, client, record);
    } finally {
      await client.close();
    }
  },
};
