import { PROBLEM_TYPES, type ProblemSlug } from './problem-types.js';

/** One violated constraint of a 400: where (a JSON Pointer fragment) and what. */
export interface ProblemErrorEntry {
  /** `#/name`, `#/items/0/quantity`, `#` (whole body), `#/query/size`, `#/path/id`, `#/header/Idempotency-Key`. */
  pointer: string;
  detail: string;
}

/**
 * The one exception type of the domain and the API pipeline: a problem that knows its kind
 * (and so its status and title), a human detail, and anything the response must carry. The
 * pipeline's error sink is the only place that turns it into `application/problem+json`.
 *
 * @example
 * throw new ApiProblem('not-found', 'User 42 does not exist');
 * throw new ApiProblem('validation-failed', 'age is out of range', {
 *   errors: [{ pointer: '#/age', detail: 'must be >= 18' }],
 * });
 */
export class ApiProblem extends Error {
  override name = 'ApiProblem';
  readonly errors: ProblemErrorEntry[] | undefined;
  /** Extra response headers the problem implies (Allow, Retry-After, WWW-Authenticate, ...). */
  readonly headers: Record<string, string>;

  constructor(
    readonly slug: ProblemSlug,
    readonly detail: string,
    extras: { errors?: ProblemErrorEntry[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.errors = extras.errors;
    this.headers = extras.headers ?? {};
  }

  get status(): number {
    return PROBLEM_TYPES[this.slug].status;
  }

  get title(): string {
    return PROBLEM_TYPES[this.slug].title;
  }
}
