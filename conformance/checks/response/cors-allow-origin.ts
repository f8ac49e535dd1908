import type { CheckFailure, ResponseCheck } from '../check.js';
import { requestHeader } from './conditional-request.js';

/**
 * `cors_allow_origin` (a response check): an answer to a request with `Origin` that allows it
 * cross-origin names `*` or that very origin in `Access-Control-Allow-Origin` (Fetch, "CORS
 * check": a browser compares the value with the request's origin byte for byte, so any other
 * value refuses the read). Found by the mutation harness once the CORS probe's answers were
 * judged (0129): a preflight allowing another origin passed.
 */
export const corsAllowOrigin: ResponseCheck = {
  kind: 'response',
  name: 'cors_allow_origin',
  description:
    'Access-Control-Allow-Origin, when given to a request with Origin, is * or that origin',
  check(exchange): CheckFailure[] {
    const origin = requestHeader(exchange, 'origin');
    const allowed = exchange.headers.get('access-control-allow-origin');
    if (origin === undefined || allowed === null) return [];
    const value = allowed.trim();
    if (value === '*' || value === origin) return [];
    return [
      {
        message: `Access-Control-Allow-Origin names neither * nor the request's origin ${origin}: a browser refuses the answer`,
        expected: `* or ${origin}`,
        actual: allowed,
      },
    ];
  },
};
