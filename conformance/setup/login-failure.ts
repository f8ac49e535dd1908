import type { SpecOperation } from '../../spec/operations.js';
import type { Exchange } from '../http/target-client.js';
import { answerSummary } from './answer-summary.js';

/** Statuses that say the route is not there: the base URL, not the credentials, is wrong. */
const NO_ROUTE = new Set([404, 405, 501]);
/** Statuses that refuse the request as sent: the credentials, as a login judges them. */
const REFUSED = new Set([400, 401, 403, 422]);

/**
 * Why a login of the run failed, told apart so the message says what to fix: credentials the
 * target refused, a base URL where the login operation is not found, or a target that could
 * not answer (429, 5xx).
 *
 * @example
 * loginFailure('user@example.com', login, exchange);
 * // 'login as user@example.com was refused (401 Invalid credentials): check the username and password'
 */
export function loginFailure(username: string, login: SpecOperation, exchange: Exchange): string {
  const status = exchange.response.status;
  const request = `${login.method.toUpperCase()} ${exchange.request.url.split('?')[0]}`;
  if (NO_ROUTE.has(status))
    return `the login operation was not found: ${request} answered ${answerSummary(exchange)}; check the base URL (the API's, under which ${login.path} is found), the credentials were not tried`;
  if (REFUSED.has(status))
    return `login as ${username} was refused (${answerSummary(exchange)}): check the username and password`;
  if (status === 429)
    return `login as ${username} was rate limited (${answerSummary(exchange)}): wait for the target's login window, or run it with a higher login limit`;
  return `login as ${username} failed: ${request} answered ${answerSummary(exchange)}`;
}
