import { requiredRole } from '../spec/apikit-extensions.js';
import { needsCredentials } from '../spec/operation-security.js';
import type { SpecOperation } from '../spec/operations.js';

/**
 * Why a documented status of an operation was not received. Every reason but `not-reached`
 * says the run could not provoke it: the target would have to break, the run lacked a
 * credential, a flag or a fact the spec does not state. `not-reached` is the gap a backend team
 * should look at: nothing known stood in the way, and still no request drew that answer.
 */
export type CoverageReason =
  | 'server-fault'
  | 'rate-limit-off'
  | 'rate-limit-paced'
  | 'no-credentials'
  | 'check-not-selected'
  | 'run-incomplete'
  | 'no-input-to-break'
  | 'route-always-matches'
  | 'needs-domain-knowledge'
  | 'catch-all'
  | 'not-reached';

/** What each reason means, one line each: the catalog the reports and the docs show. */
export const COVERAGE_REASONS: Record<CoverageReason, string> = {
  'server-fault': 'a 5xx cannot be provoked from outside without breaking the target',
  'rate-limit-off': 'the target announced no rate limit and never answered 429',
  'rate-limit-paced': 'the run keeps within the announced rate limits instead of flooding them',
  'no-credentials': 'needs a credential the run was not given',
  'check-not-selected': 'the checks that could reach it were not selected (--checks)',
  'run-incomplete': 'the run stopped before the checks that could reach it',
  'no-input-to-break': 'the operation takes no input a request could get wrong',
  'route-always-matches': 'an OPTIONS request to a declared path always matches its route',
  'needs-domain-knowledge': 'needs a fact about the target that the spec does not state',
  'catch-all': '`default` documents every other status; there is nothing to provoke',
  'not-reached': 'provokable, but no request of the run drew it',
};

/** A documented status the run did not receive, and why. */
export interface UnexercisedStatus {
  status: string;
  reason: CoverageReason;
  /** The reason for this operation: which fact, credential or flag was missing. */
  detail: string;
}

/** What the run knows that decides whether a status could be provoked. */
export interface CoverageFacts {
  /** A credential for the secured operations (`--username`/`--password` or `--token`). */
  user: boolean;
  /** A second credential, holding the roles the spec requires (`--admin-*`). */
  admin: boolean;
  /** The login operation the run found in the spec (by shape), if any. */
  loginOperationId?: string | undefined;
  /** Only some checks ran (`--checks`). */
  checksNarrowed: boolean;
  /** Why the run did not finish, when it did not. */
  incomplete?: string | undefined;
  /** The target announced a rate limit (RateLimit headers) or answered 429 somewhere. */
  rateLimited: boolean;
  /** The spec declares unknown query parameters refused (`x-apikit-validation`). */
  unknownQueryRefused: boolean;
}

/** Facts of a run with every credential, every check, limits off: the default for a bare call. */
export const FULL_RUN_FACTS: CoverageFacts = {
  user: true,
  admin: true,
  checksNarrowed: false,
  rateLimited: false,
  unknownQueryRefused: false,
};

/**
 * Whether a documented status key counts as received: exactly, by its range (`4XX`: any status
 * of the class), or `default` by any received status the operation documents no other way.
 *
 * @example
 * isExercised('4XX', ['200', '404'], ['200', '4XX']); // true
 */
export function isExercised(key: string, exercised: string[], documented: string[]): boolean {
  if (exercised.includes(key)) return true;
  if (/^[1-5]XX$/.test(key)) return exercised.some((s) => s[0] === key[0]);
  if (key === 'default')
    return exercised.some((s) => !documented.includes(s) && !documented.includes(`${s[0]}XX`));
  return false;
}

/**
 * Why `op` never answered `status` in this run, from what the run knows: the status's meaning,
 * the credentials, the selected checks, the target's rate-limit answers. Nothing here names an
 * operation of a particular API.
 *
 * @example
 * explainUnexercised(getUser, '503', facts); // { reason: 'server-fault', detail: '…' }
 */
export function explainUnexercised(
  op: SpecOperation,
  status: string,
  facts: CoverageFacts,
): Omit<UnexercisedStatus, 'status'> {
  const why = (reason: CoverageReason, detail = COVERAGE_REASONS[reason]) => ({ reason, detail });
  if (status === 'default') return why('catch-all');
  if (/^5/.test(status) && status !== '501')
    return why('server-fault', `${status} needs the target failing, overloaded or draining`);
  if (status === '429')
    return facts.rateLimited
      ? why('rate-limit-paced')
      : why('rate-limit-off', `${COVERAGE_REASONS['rate-limit-off']} (no RateLimit headers)`);
  const credential = missingCredential(op, status, facts);
  if (credential) return why('no-credentials', credential);
  const unknowable = unknownFact(op, status, facts);
  if (unknowable) return why(unknowable.reason, unknowable.detail);
  if (facts.incomplete) return why('run-incomplete', `the run stopped: ${facts.incomplete}`);
  if (facts.checksNarrowed) return why('check-not-selected');
  return why('not-reached');
}

/** The credential a status needs that the run lacks, said for the operation. */
function missingCredential(
  op: SpecOperation,
  status: string,
  facts: CoverageFacts,
): string | undefined {
  if (status === '401') return undefined;
  if (needsCredentials(op) && !facts.user && !facts.admin)
    return 'the operation is secured and the run was given no credential (--username/--password or --token)';
  const role = requiredRole(op);
  if (role && status === '403' && !facts.user)
    return `a 403 needs a credential without ${role}; the run holds only one`;
  if (role && status !== '403' && !facts.admin)
    return `needs a credential holding ${role} (--admin-username/--admin-password)`;
  if (op.operationId === facts.loginOperationId && status === '403')
    return 'needs an account whose right password the target refuses (a blocked one); the run knows none';
  return undefined;
}

/** A status whose request needs knowledge no spec gives, or that no request can draw. */
function unknownFact(
  op: SpecOperation,
  status: string,
  facts: CoverageFacts,
): { reason: CoverageReason; detail: string } | undefined {
  if (op.method === 'options' && status === '404')
    return {
      reason: 'route-always-matches',
      detail: 'a 404 needs a path that matches no route, and such a path is not this operation',
    };
  if (status === '400' && !facts.unknownQueryRefused && nothingToBreak(op))
    return {
      reason: 'no-input-to-break',
      detail:
        'no path or query parameter, no body, no header with a constraint: only an unknown query parameter could be wrong, and the spec does not declare those refused (x-apikit-validation)',
    };
  if (status === '409')
    return {
      reason: 'needs-domain-knowledge',
      detail:
        'a 409 needs target state that conflicts with the request (a duplicate, a transition from the wrong state); the spec states no rule the run could set it up by',
    };
  return undefined;
}

/** No input a request could get wrong: no path or query parameter, no body, free-text headers. */
function nothingToBreak(op: SpecOperation): boolean {
  if (op.requestBody) return false;
  return op.parameters.every((p) => {
    if (p.in !== 'header') return false;
    const schema = (p.schema ?? {}) as Record<string, unknown>;
    const constrained = ['pattern', 'enum', 'format', 'minLength', 'maxLength', 'const'];
    return (schema.type ?? 'string') === 'string' && !constrained.some((k) => k in schema);
  });
}
