import type { CheckFailure, ResponseCheck } from '../check.js';
import { describe } from '../support/stateful-support.js';
import { entityTags, requestHeader, weakEqual } from './conditional-request.js';

/**
 * `not_modified_etag` (a response check): a 304 to a request with `If-None-Match` carries the
 * ETag a 200 would (RFC 9110 15.4.5), which is the tag that matched: one the request listed,
 * compared weakly, or any when it sent `*` (13.1.2). Another tag means the 304 names another
 * representation, or none of the tags matched and the full answer was due. Found by the
 * mutation harness (issue 32): conditional_get judged the 304s of its own probes only.
 */
export const notModifiedEtag: ResponseCheck = {
  kind: 'response',
  name: 'not_modified_etag',
  description: 'A 304 to If-None-Match carries the tag that matched: one of those the request sent',
  check(exchange): CheckFailure[] {
    if (exchange.response.status !== 304) return [];
    const sent = requestHeader(exchange, 'if-none-match');
    const etag = exchange.headers.get('etag');
    // Without If-None-Match: not_modified_when_matched; no ETag: response_headers_conformance.
    if (sent === undefined || etag === null) return [];
    const tags = entityTags(sent);
    if (tags === '*' || tags.some((tag) => weakEqual(tag, etag))) return [];
    return [
      {
        message:
          "the 304's ETag is none of the tags If-None-Match sent: it names another representation, or nothing matched and the full answer was due",
        expected: `ETag weakly equal to one of ${sent}`,
        actual: `${describe(exchange)}, ETag ${etag}`,
      },
    ];
  },
};
