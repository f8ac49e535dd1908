/** Who a step calls as: the demo admin, the demo user (bearer tokens the runner holds), or nobody. */
export type Caller = 'admin' | 'user' | 'none';

/**
 * One request of a scenario. `path` is origin-relative (`/api/v1/users`, `/healthz`).
 * `{{name}}` in the path, in header values and in any string of the body is replaced by a value
 * captured by an earlier step of the same scenario (on the same side: mock or server).
 */
export interface Step {
  method: string;
  path: string;
  as: Caller;
  headers?: Record<string, string>;
  /** A JSON body. */
  body?: unknown;
  /** A body sent verbatim (malformed JSON, text, oversized payloads). */
  rawBody?: string;
  /**
   * Content-Type of `body`/`rawBody`: `application/json` by default; `null` sends none, so that
   * fetch adds its own default for a string body (`text/plain;charset=UTF-8`), as any browser
   * or Node client does. A `Content-Type` in `headers` wins over both.
   */
  contentType?: string | null;
  /**
   * Values to keep for later steps, by name: `body.<dotted path>` (array indexes as numbers,
   * e.g. `body.items.0.id`) or `header.<name>` (e.g. `header.etag`, `header.location`).
   */
  capture?: Record<string, string>;
}

export interface Scenario {
  name: string;
  steps: Step[];
}
