import { inputOf, selectedOf, type Exchange } from '../exchange.js';

/**
 * 400 listing every violation of the body against the operation's schema; else the parsed
 * body becomes the handler's input.
 *
 * @example
 * parseBody(x); // POST /api/v1/users with {}: throws a 400 listing every missing field
 */
export function parseBody(x: Exchange): undefined {
  const { parsers } = selectedOf(x);
  inputOf(x).body = parsers.body.parse(x.mediaType, x.request.body);
  return undefined;
}
