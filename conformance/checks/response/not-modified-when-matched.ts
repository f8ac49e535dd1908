import type { Exchange } from '../../http/target-client.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { describe } from '../support/stateful-support.js';
import { requestHeader, toSecond } from './conditional-request.js';

/**
 * `not_modified_when_matched` (a response check): a 304 answers only a conditional GET or HEAD
 * whose validator matched (RFC 9110 15.4.5, 13.1.3). With `If-None-Match` the match shows in
 * the 304's ETag (`not_modified_etag`); without it, `If-Modified-Since` must have been sent, be
 * an HTTP-date (an invalid one is ignored) and not be before the 304's Last-Modified, when it
 * carries one (compared to the second). A request with neither validator is never 304. Found
 * by the mutation harness (issue 32): a 200 turned 304 passed where the sending check did not
 * look at the status.
 */
export const notModifiedWhenMatched: ResponseCheck = {
  kind: 'response',
  name: 'not_modified_when_matched',
  description:
    'A 304 answers only a conditional GET or HEAD whose If-None-Match or If-Modified-Since matched',
  check(exchange): CheckFailure[] {
    if (exchange.response.status !== 304) return [];
    const wrong = whyNotConditional(exchange);
    return wrong === undefined
      ? []
      : [
          {
            message: `a 304 where the full answer was due: ${wrong}`,
            expected:
              'a 304 only to a GET or HEAD whose If-None-Match or If-Modified-Since matched',
            actual: describe(exchange),
          },
        ];
  },
};

/** Why the request could not be answered 304, or undefined when it could. */
function whyNotConditional(exchange: Exchange): string | undefined {
  const method = exchange.request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return `${method} is not a conditional read`;
  if (requestHeader(exchange, 'if-none-match') !== undefined) return undefined;
  const since = requestHeader(exchange, 'if-modified-since');
  if (since === undefined) return 'the request carried neither If-None-Match nor If-Modified-Since';
  const sinceTime = Date.parse(since);
  if (Number.isNaN(sinceTime))
    return `If-Modified-Since ${since} is no HTTP-date, so it is ignored (RFC 9110 13.1.3)`;
  const modified = exchange.headers.get('last-modified');
  const modifiedTime = modified === null ? NaN : Date.parse(modified);
  if (toSecond(modifiedTime) > toSecond(sinceTime))
    return `its Last-Modified ${modified} is after If-Modified-Since ${since}`;
  return undefined;
}
