import { serviceDeclaration } from '../../../spec/apikit-extensions.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { parseList, type ListMember } from './structured-list.js';

/** Runs in which some answer already carried the RateLimit headers: a limit is on. */
const limited = new WeakSet<RunContext>();

const DRAFT = 'draft-ietf-httpapi-ratelimit-headers';

/** Why a member lacks a required non-negative integer parameter, or a bad optional one. */
function paramProblems(member: ListMember, required: string, optional: string[]): string[] {
  const problems: string[] = [];
  const integer = (name: string) => {
    const p = member.params.get(name);
    return p !== undefined && p.kind === 'integer' && Number(p.text) >= 0;
  };
  if (!integer(required)) problems.push(`"${member.item.text}" has no integer ${required}`);
  for (const name of optional)
    if (member.params.has(name) && !integer(name))
      problems.push(`"${member.item.text}": ${name} is not a non-negative integer`);
  return problems;
}

/** What is wrong with the pair as a whole, or nothing. */
export function pairProblems(limit: string | null, policy: string | null): string[] {
  if (limit === null || policy === null)
    return [`${limit === null ? 'RateLimit' : 'RateLimit-Policy'} is missing beside the other`];
  const policies = parseList(policy);
  const limits = parseList(limit);
  if (!policies) return ['RateLimit-Policy is not a structured-field list of items'];
  if (!limits) return ['RateLimit is not a structured-field list of items'];
  const named = (m: ListMember) => m.item.kind === 'string' || m.item.kind === 'token';
  const problems = [...policies, ...limits]
    .filter((m) => !named(m))
    .map((m) => `${m.item.text} is not a policy name (a string or token)`);
  for (const p of policies) problems.push(...paramProblems(p, 'q', ['w']));
  for (const l of limits) problems.push(...paramProblems(l, 'r', ['t']));
  const names = new Set(policies.map((p) => p.item.text));
  for (const l of limits)
    if (!names.has(l.item.text))
      problems.push(`RateLimit names "${l.item.text}", which RateLimit-Policy does not list`);
  return problems;
}

/**
 * `rate_limit_headers` (a response check), where the spec declares
 * `x-apikit-service.rateLimitHeaders`: `RateLimit` and `RateLimit-Policy` come together, each
 * a structured-field list (RFC 9651) in the draft's terms: every policy a name with an integer
 * quota `q` (and window `w`), every limit a name RateLimit-Policy lists with an integer
 * remainder `r` (and reset `t`). Once an answer of the run carried them (a limit is on), every
 * later answer of an operation but OPTIONS carries them too. Without a limit on, none is due.
 */
export const rateLimitHeaders: ResponseCheck = {
  kind: 'response',
  name: 'rate_limit_headers',
  description: `RateLimit and RateLimit-Policy in the syntax of ${DRAFT}, on every answer while a limit is on (x-apikit-service.rateLimitHeaders)`,
  check(exchange, op, ctx): CheckFailure[] {
    if (op.method === 'options' || !serviceDeclaration(ctx.spec).rateLimitHeaders) return [];
    const limit = exchange.headers.get('ratelimit');
    const policy = exchange.headers.get('ratelimit-policy');
    const shown = `RateLimit: ${limit ?? '(none)'}; RateLimit-Policy: ${policy ?? '(none)'}`;
    if (limit === null && policy === null) {
      if (!limited.has(ctx)) return [];
      return [
        {
          message: 'an answer carries no RateLimit headers while earlier answers of the run did',
          expected: 'RateLimit and RateLimit-Policy on every answer while a limit is on',
          actual: shown,
        },
      ];
    }
    limited.add(ctx);
    const problems = pairProblems(limit, policy);
    return problems.length === 0
      ? []
      : [
          {
            message: `malformed RateLimit headers: ${problems.slice(0, 3).join('; ')}`,
            expected: `${DRAFT}: RateLimit-Policy: "name";q=N;w=S and RateLimit: "name";r=N;t=S`,
            actual: shown,
          },
        ];
  },
};
