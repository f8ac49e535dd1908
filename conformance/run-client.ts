import type { ConformanceOptions } from './conformance-options.js';
import type { PaceEvent, PolicyBudget } from './http/rate-limit-pacer.js';
import { TargetClient } from './http/target-client.js';
import { SecretRedactor } from './secret-redactor.js';

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
  redactor.add(options.token, 'user token');
  for (const [name, value] of Object.entries(options.headers ?? {}))
    if (CREDENTIAL_HEADER.test(name)) redactor.add(value, `${name} header`);
  return redactor;
}

/**
 * The run's client of the target: it teaches the redactor every token the target issues, and
 * tells `onProgress` of 429 waits, announced policies and pacing.
 */
export function createRunClient(
  options: ConformanceOptions,
  redactor: SecretRedactor,
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
