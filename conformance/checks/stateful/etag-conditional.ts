import { conditionalGetCheck } from './conditional-get.js';
import { weakMatch } from '../support/stateful-support.js';

/**
 * `etag_conditional`: where a GET's 200 documents an ETag, `If-None-Match` with that tag
 * answers 304 with no body and the same ETag (RFC 9110 13.1.2, 15.4.5), and with another tag
 * the full 200.
 */
export const etagConditional = conditionalGetCheck({
  name: 'etag_conditional',
  description:
    'If-None-Match with the current ETag answers 304 with no body and the ETag; another tag answers 200',
  validator: 'ETag',
  condition: 'If-None-Match',
  check304: (answer, etag) =>
    weakMatch(answer.headers.get('etag'), etag)
      ? []
      : [`its ETag is ${answer.headers.get('etag') ?? 'missing'}`],
  // A tag no server hands out.
  other: () => '"apikit-conformance-no-such-tag"',
});
