import { ApiProblem } from '../../domain/api-problem.js';
import { acceptsJson } from '../accept-header.js';
import type { Exchange } from '../exchange.js';

/**
 * 406 when the Accept header admits neither JSON nor problem+json.
 *
 * @example
 * checkAccept(x); // Accept: text/html: throws the 406 'not-acceptable'
 */
export function checkAccept(x: Exchange): undefined {
  if (!acceptsJson(x.request.headers.get('accept'))) {
    throw new ApiProblem(
      'not-acceptable',
      'This API answers application/json (errors application/problem+json); the Accept header admits neither',
    );
  }
  return undefined;
}
