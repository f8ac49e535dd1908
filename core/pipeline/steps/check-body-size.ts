import { ApiProblem } from '../../domain/api-problem.js';
import { MAX_BODY_BYTES } from '../body-parser.js';
import type { Exchange } from '../exchange.js';

/**
 * 413 for a body over the limit, whether the adapter stopped reading it (`bodyTooLarge`) or
 * handed it in whole: judged here, after 401/403/406, not when the bytes arrived.
 *
 * @example
 * checkBodySize(x); // a request with bodyTooLarge: throws the 413 'payload-too-large'
 */
export function checkBodySize(x: Exchange): undefined {
  const { body, bodyTooLarge } = x.request;
  if (bodyTooLarge || (body && body.length > MAX_BODY_BYTES)) {
    throw new ApiProblem(
      'payload-too-large',
      `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB`,
    );
  }
  return undefined;
}
