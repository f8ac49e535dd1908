import { statusProbe } from './expect-status.js';
import { validCall } from '../support/probe-support.js';

/**
 * not_acceptable: an operation refuses `Accept: text/html` with 406 (RFC 9110 15.5.7) when the
 * spec documents 406 for it, bodiless answers (204) included: the spec, not the shape of the
 * success answer, says whether the Accept header is negotiated.
 */
export const notAcceptable = statusProbe({
  name: 'not_acceptable',
  description: 'Accept: text/html is refused with 406 where the spec documents 406',
  status: 406,
  call: (ctx, op, params) => ({ ...validCall(ctx, op, params), accept: 'text/html' }),
  sent: () => 'Accept: text/html',
});
