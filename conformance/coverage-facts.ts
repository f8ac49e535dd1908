import { declaredValidation } from '../spec/apikit-extensions.js';
import type { ConformanceOptions } from './conformance-options.js';
import type { CoverageFacts } from './coverage-reasons.js';
import type { RunPlan } from './run-plan.js';

/** What a finished run knew that decides why a documented status was not received. */
export interface RunKnowledge {
  options: ConformanceOptions;
  plan: RunPlan;
  loginOperationId: string | undefined;
  /** Why the run did not finish, when it did not. */
  incomplete: string | undefined;
  /** How many rate-limit policies the target announced. */
  announcedPolicies: number;
}

/**
 * The facts of one run for the coverage reasons: its credentials, its checks, its flags, and
 * what the target answered about rate limits.
 *
 * @example
 * collector.coverage(plan.operations, coverageFacts({ options, plan, loginOperationId, incomplete, announcedPolicies: 0 }));
 */
export function coverageFacts(run: RunKnowledge): CoverageFacts {
  const { options } = run;
  return {
    user: Boolean(options.token || (options.username && options.password)),
    admin: Boolean(options.adminUsername && options.adminPassword),
    loginOperationId: run.loginOperationId,
    checksNarrowed:
      Boolean(options.checks?.length) ||
      Boolean(options.excludeChecks?.length) ||
      Boolean(options.fuzz?.only),
    incomplete: run.incomplete,
    rateLimited: run.announcedPolicies > 0,
    unknownQueryRefused: declaredValidation(run.plan.spec).rejectUnknownQueryParameters,
  };
}
