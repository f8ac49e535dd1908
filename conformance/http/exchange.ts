import type { RecordedRequest, RecordedResponse } from '../report.js';

/** A request the runner wants to send, relative to the target's base URL. */
export interface PlannedRequest {
  method: string;
  /** Path below the base URL with the query, e.g. `/users/42?expand=user`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The operation (`POST /auth/login`), so the pacer can tell which budgets it spends. */
  route?: string;
  /**
   * Sent for the run itself, not to judge anything (the logins of its credentials, deleting
   * what it made): never held to the run's scope (decision 0096).
   */
  housekeeping?: boolean;
}

/** One request and what came back. */
export interface Exchange {
  request: RecordedRequest;
  response: RecordedResponse & { body: string; headers: Record<string, string> };
  /** The response headers as a Headers object, for case-insensitive reads. */
  headers: Headers;
}

/** A wait for a rate-limit window (or a Retry-After) was cut short: the run is stopping. */
export class WaitInterruptedError extends Error {
  override name = 'WaitInterruptedError';
}

/** The target could not be reached or did not answer in time. */
export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError';
}
