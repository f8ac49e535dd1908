import { renderProblem } from '../../core/pipeline/problem-response.js';
import { ApiProblem, type ProblemErrorEntry } from '../../core/domain/api-problem.js';
import { PROBLEM_TYPES, type ProblemSlug } from '../../core/domain/problem-types.js';

/** One entry of Prism's `sl-violations` header (or of its problem's `validation` list). */
export interface PrismFinding {
  location?: string[];
  severity?: string;
  code?: string | number;
  message?: string;
}

/** An answer of Prism's, buffered. */
export interface PrismAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The answer the front sends instead: status, headers to set over Prism's, body. */
export interface CoherentAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The contract's problem for a status Prism answers with, when it made the answer itself. */
const SLUG_BY_STATUS: Record<number, ProblemSlug> = {
  400: 'validation-failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  406: 'not-acceptable',
  409: 'conflict',
  412: 'precondition-failed',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  422: 'unknown-reference',
  429: 'rate-limited',
  500: 'internal-error',
  501: 'not-implemented',
  503: 'service-unavailable',
};

/**
 * Turns what Prism's mock answered into an answer of the contract, with a status and a body
 * that agree (decision 0059). Prism picks a documented response for a failing request (422
 * before 400, as its docs say) and fills it with the first example it finds, which in this
 * contract is the shared Problem schema's (`not-found`, 404, `/api/v1/users/999`): an invalid
 * POST got 422 saying 404. The contract answers a request that breaks the description with
 * 400 `validation-failed` and `errors[]`, a missing token with 401 `unauthenticated`; so:
 *
 * - Prism found the request invalid (its `sl-violations`, or one of its own error problems):
 *   401 `unauthenticated` when credentials are missing, else 400 `validation-failed` listing
 *   every finding as `{ pointer, detail }`; a 406/413/415 Prism chose stays that status.
 * - Prism's own routing errors: 404 `not-found`, 405 `method-not-allowed`.
 * - Any other problem (a `Prefer: code=...` answer, say): its status kept; a body whose type
 *   belongs to another status is replaced by the status's own problem.
 *
 * Every problem then carries the request's own `instance` and `requestId`, which also goes
 * into `X-Request-Id` of every answer (Prism sends the example's fixed id).
 */
export function coherentAnswer(
  answer: PrismAnswer,
  request: { path: string; requestId: string },
): CoherentAnswer {
  const headers: Record<string, string> = { 'X-Request-Id': request.requestId };
  if (!/^application\/problem\+json/i.test(answer.headers['content-type'] ?? ''))
    return { status: answer.status, headers, body: answer.body };
  const own = prismOwnProblem(answer.body);
  const findings = requestFindings(answer.headers['sl-violations'], own);
  let problem: ApiProblem;
  if (own?.type.endsWith('#NO_PATH_MATCHED_ERROR'))
    problem = new ApiProblem('not-found', `No resource at ${request.path}`);
  else if (own?.type.endsWith('#NO_METHOD_MATCHED_ERROR'))
    problem = new ApiProblem('method-not-allowed', own.detail ?? own.title ?? 'Method not allowed');
  else if (findings.length > 0 || own) {
    const security = findings.find((f) => f.code === 401 || /security/i.test(f.message ?? ''));
    if (security || answer.status === 401)
      problem = new ApiProblem(
        'unauthenticated',
        'This operation needs an access token: send Authorization: Bearer <token>',
        { headers: { 'WWW-Authenticate': 'Bearer realm="api"' } },
      );
    else if ([406, 413, 415].includes(answer.status))
      problem = new ApiProblem(SLUG_BY_STATUS[answer.status]!, findings[0]?.message ?? '');
    else {
      const errors = findings.map(toErrorEntry);
      if (errors.length === 0) errors.push({ pointer: '#', detail: own?.title ?? 'is invalid' });
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
      problem = new ApiProblem(
        'validation-failed',
        `${errors[0]!.pointer} ${errors[0]!.detail}${more}`,
        { errors },
      );
    }
  } else {
    const body = parse(answer.body) as { type?: unknown; detail?: unknown } | undefined;
    const slug = slugOf(body?.type);
    const fits = slug !== undefined && PROBLEM_TYPES[slug].status === answer.status;
    const fallback = SLUG_BY_STATUS[answer.status];
    if (fits && body) {
      // The example is the contract's own for this status: only the request's facts change.
      const text = JSON.stringify({
        ...body,
        instance: request.path,
        requestId: request.requestId,
      });
      return { status: answer.status, headers, body: Buffer.from(text) };
    }
    if (!fallback) return { status: answer.status, headers, body: answer.body };
    problem = new ApiProblem(fallback, PROBLEM_TYPES[fallback].title);
  }
  const rendered = renderProblem(problem, request.path, request.requestId);
  return {
    status: rendered.status,
    headers: { ...headers, ...rendered.headers },
    body: Buffer.from(rendered.body),
  };
}

/** `#/name`, `#/email` (a missing property), `#/query/size`, `#/path/id`, `#/header/X`. */
export function toErrorEntry(finding: PrismFinding): ProblemErrorEntry {
  const location = [...(finding.location ?? [])];
  if (location[0] === 'request') location.shift();
  const part = location.shift();
  const message = finding.message ?? 'is invalid';
  const missing = finding.code === 'required' ? /property '([^']+)'/.exec(message)?.[1] : undefined;
  if (missing) location.push(missing);
  const escaped = location.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'));
  const pointer =
    part === 'body' || part === undefined
      ? `#${escaped.map((s) => `/${s}`).join('')}`
      : `#/${part}${escaped.map((s) => `/${s}`).join('')}`;
  // Prism's messages name the place ("Request body property name must ..."): the pointer does.
  const detail = message
    .replace(
      /^Request (body|query|path|header)( parameter| property)? ?\S* ?(?=must|should|is)/i,
      '',
    )
    .trim();
  return { pointer, detail: detail || message };
}

interface PrismOwnProblem {
  type: string;
  title?: string;
  detail?: string;
  validation?: PrismFinding[];
}

function prismOwnProblem(body: Buffer): PrismOwnProblem | undefined {
  const value = parse(body) as Partial<PrismOwnProblem> | undefined;
  return typeof value?.type === 'string' && value.type.includes('stoplight.io/prism/errors')
    ? (value as PrismOwnProblem)
    : undefined;
}

/** Prism's findings about the request: from its header, else from its own problem's list. */
function requestFindings(header: string | undefined, own: PrismOwnProblem | undefined) {
  let list: PrismFinding[] = [];
  if (header) {
    try {
      list = JSON.parse(header) as PrismFinding[];
    } catch {
      list = [{ location: ['request'], message: 'the request breaks the description' }];
    }
  } else if (own?.validation)
    list = own.validation.map((v) => ({ ...v, location: ['request', ...(v.location ?? [])] }));
  return list.filter((f) => (f.location ?? ['request'])[0] === 'request');
}

function slugOf(type: unknown): ProblemSlug | undefined {
  if (typeof type !== 'string' || !type.startsWith('urn:apikit:problem:')) return undefined;
  const slug = type.slice('urn:apikit:problem:'.length);
  return slug in PROBLEM_TYPES ? (slug as ProblemSlug) : undefined;
}

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
