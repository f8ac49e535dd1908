import { selectedOf, type Exchange } from '../exchange.js';

/**
 * 415 when a body's Content-Type is not one the operation takes (UTF-8 only; a PATCH's 415
 * names Accept-Patch). The accepted media type is what `parseBody` parses later.
 *
 * @example
 * checkMediaType(x); // POST /api/v1/users as text/plain: throws the 415
 */
export function checkMediaType(x: Exchange): undefined {
  const { parsers } = selectedOf(x);
  x.mediaType = parsers.body.checkMediaType(x.request.headers, x.request.body);
  return undefined;
}
