import type { ConformanceOptions } from './conformance-options.js';
import type { PaceEvent, PolicyBudget } from './http/rate-limit-pacer.js';
import { TargetClient, type PlannedRequest } from './http/target-client.js';
import type { AuthOptions } from './auth-session.js';
import { SecretRedactor, type ShellVariable } from './secret-redactor.js';

/** Header names whose values are credentials (API keys, tokens, cookies): kept out of reports. */
const CREDENTIAL_HEADER = /key|token|secret|auth|cookie|session|password|signature/i;

/** A rate-limit policy as the progress events and the report name it. */
export interface PolicyDescription {
  policy: string;
  quota?: number;
  windowSeconds?: number;
}

/** The time the run held back for the target's rate limits, and the policies it announced. */
export interface Pacing {
  pacedMs(): number;
  policies(): PolicyDescription[];
}

/** The secrets of the options (passwords, token, credential-like headers), to keep out of reports. */
export function createRedactor(options: ConformanceOptions): SecretRedactor {
  const redactor = new SecretRedactor();
  redactor.add(options.password, 'user password');
  redactor.add(options.adminPassword, 'admin password');
  redactor.addVariable(options.token, 'user token', tokenVariable('user', options));
  for (const [name, value] of Object.entries(options.headers ?? {}))
    if (CREDENTIAL_HEADER.test(name)) redactor.add(value, `${name} header`);
  return redactor;
}

/**
 * The shell variable curl lines name an access token of the user or the admin by (decision
 * 0098): `$APIKIT_TOKEN`, `$APIKIT_ADMIN_TOKEN`, so a failure's curl runs once it is exported.
 *
 * @example
 * tokenVariable('user', { username: 'user@example.com' });
 * // { name: 'APIKIT_TOKEN', holds: 'an access token of user@example.com' }
 */
export function tokenVariable(who: 'user' | 'admin', options: AuthOptions): ShellVariable {
  return who === 'user'
    ? { name: 'APIKIT_TOKEN', holds: `an access token of ${options.username ?? 'the user'}` }
    : {
        name: 'APIKIT_ADMIN_TOKEN',
        holds: `an access token of ${options.adminUsername ?? 'the admin'}`,
      };
}

/** Names each access token the run's logins get by its variable, for the curl lines. */
export function nameTokens(
  redactor: SecretRedactor,
  options: AuthOptions,
): (who: 'user' | 'admin', accessToken: string) => void {
  return (who, accessToken) =>
    redactor.addVariable(accessToken, 'accessToken issued to the run', tokenVariable(who, options));
}

/**
 * The run's client of the target: it teaches the redactor every token the target issues,
 * tells `onProgress` of 429 waits, announced policies and pacing, and asks `guard` (the run's
 * scope) before each request.
 */
export function createRunClient(
  options: ConformanceOptions,
  redactor: SecretRedactor,
  guard?: (request: PlannedRequest) => void,
): { client: TargetClient; pacing: Pacing } {
  let pacedMs = 0;
  let pacedUntil = 0;
  const policies = new Map<string, PolicyBudget>();
  const client: TargetClient = new TargetClient({
    // Every answer may carry tokens issued to the run: learn them before anything is reported.
    onExchange: (exchange) => redactor.learnFrom(exchange.response.body),
    onWait: (seconds, request) =>
      options.onProgress?.({
        kind: 'wait',
        seconds,
        reason: `the target answered 429 to ${request.method} ${request.path.split('?')[0]}; waiting out its Retry-After`,
      }),
    onPolicy: (budget) => {
      // One line per policy, however many partitions (credentials) it counts separately.
      if (policies.has(budget.policy)) return;
      policies.set(budget.policy, budget);
      options.onProgress?.({ kind: 'policy', ...describePolicy(budget) });
    },
    onPace: (event: PaceEvent) => {
      // Waits of several budgets overlap: count the time covered, not each wait.
      const now = Date.now();
      pacedMs += Math.max(0, event.untilMs - Math.max(now, pacedUntil));
      pacedUntil = Math.max(pacedUntil, event.untilMs);
      options.onProgress?.({
        kind: 'pace',
        ...describePolicy(event.budget),
        untilMs: event.untilMs,
        requests: client.count,
      });
    },
    baseUrl: options.baseUrl,
    ...(guard ? { guard } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.pace === false ? { pace: false } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
  });
  const pacing: Pacing = {
    pacedMs: () => pacedMs,
    policies: () => [...policies.values()].map(describePolicy),
  };
  return { client, pacing };
}

function describePolicy(budget: PolicyBudget): PolicyDescription {
  return {
    policy: budget.policy,
    ...(budget.quota !== undefined ? { quota: budget.quota } : {}),
    ...(budget.windowSeconds !== undefined ? { windowSeconds: budget.windowSeconds } : {}),
  };
}
