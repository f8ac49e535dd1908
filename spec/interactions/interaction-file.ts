/**
 * The recording a frontend's tests leave behind (decision 0112): every interaction its tests
 * had with the MSW mocks, one per shape, and the tests that made it. The mocks write it
 * (`createMockApi({ record })`, `APIKIT_RECORD=FILE`); `apikit conform URL --interactions FILE`
 * replays it against a real backend. It lives under spec/ because it is a contract artifact
 * between two teams: both faces read the same format, neither imports the other.
 *
 * Stable and diff-friendly: keys sorted, interactions sorted by `key`, tests sorted, no
 * timestamps, no secrets (tokens and passwords are placeholders, see {@link PLACEHOLDERS}).
 */

/** The format's name and version, the file's first field. */
export const INTERACTION_FORMAT = 'apikit-interactions/1';

/** What stands where a secret was. */
export const PLACEHOLDERS = {
  /** An access token (Authorization: Bearer, access_token query parameter, accessToken). */
  accessToken: '<access-token>',
  /** A refresh token (refreshToken in a body). */
  refreshToken: '<refresh-token>',
  /** A password (password in a body). */
  password: '<password>',
} as const;

/**
 * What stands where a value was that changes from run to run or from request to request
 * (a request id, an ETag, Last-Modified, a rate-limit counter, a timestamp the mock's clock
 * made while the tests ran): the field or header is there, its value is not worth comparing.
 * A replay sends its own value for such a request header (If-Match, If-None-Match,
 * Idempotency-Key) and judges such a response field by its presence and type only.
 */
export const VARYING = '<varies>';

/** A test that made an interaction: where the test runner tells (Vitest, Jest), else the file. */
export interface RecordedTest {
  /** The test file, relative to the project root (forward slashes). */
  file: string;
  /** The test's full name ("describe > it"), when the runner exposes it. */
  name?: string;
}

/** One request as the app sent it, with secrets replaced. */
export interface RecordedRequest {
  method: string;
  /** The concrete path the app called, e.g. `/api/v1/users/12/orders/40` (ids as the mock had them). */
  path: string;
  /** Query parameters in order of appearance, repeated ones as several entries. */
  query: [string, string][];
  /**
   * The request headers that matter to the contract (Authorization as a placeholder,
   * Content-Type, Accept, If-Match, If-None-Match, If-Modified-Since, Idempotency-Key,
   * Prefer), lower-case names. Values of the moment (If-Match, If-None-Match,
   * If-Modified-Since, Idempotency-Key) read {@link VARYING}.
   */
  headers: Record<string, string>;
  /** The parsed JSON body, if any (secrets replaced). */
  body?: unknown;
}

/** The mock's answer the app saw. */
export interface RecordedResponse {
  status: number;
  /**
   * The response headers, lower-case names; those whose values vary per request or run (Date,
   * X-Request-Id, ETag, Last-Modified, Content-Length, rate-limit counters) are present with
   * the value {@link VARYING}.
   */
  headers: Record<string, string>;
  /** The parsed JSON body, if any (secrets replaced). */
  body?: unknown;
}

/** One interaction of one shape. */
export interface RecordedInteraction {
  /**
   * Stable identity of the shape: operationId, status, and a short hash of the request's and
   * answer's shapes (names of query parameters and headers, the body's field names and JSON
   * types), e.g. `getUser 200 3f9a1c`. Two tests that make the same shape share one entry.
   */
  key: string;
  /** The spec's operationId of the request. */
  operationId: string;
  request: RecordedRequest;
  response: RecordedResponse;
  /** Every test that made this shape, sorted by file then name. */
  tests: RecordedTest[];
  /**
   * Set when the answer was not the mocks' own behaviour but one the test asked for: `override`
   * (`mock.override(...)`, e.g. a 503 to show an error state) or `prefer` (a `Prefer: code=`
   * or `example=` header). A backend gives such an answer only in a state the test did not
   * set up through the contract: a replay checks its shape where it can, not its status.
   * Absent for the mocks' own answers. Part of the key: a canned 404 and a real one differ.
   */
  canned?: 'override' | 'prefer';
}

/** The file. */
export interface InteractionFile {
  format: typeof INTERACTION_FORMAT;
  /** The consumer's name (its package.json name, or `APIKIT_RECORD_CONSUMER`). */
  consumer: string;
  /** The contract's info.title and info.version the mocks answered by. */
  contract: { title: string; version: string };
  /** Sorted by `key`. */
  interactions: RecordedInteraction[];
}
