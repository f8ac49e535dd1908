import { serviceDeclaration } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import {
  addressesPath,
  methodListProblem,
  methodListText,
  pathMethods,
  requestHeader,
  type MethodList,
} from '../support/path-methods.js';

const isOptions = (exchange: Exchange) => exchange.request.method.toUpperCase() === 'OPTIONS';
const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * `allow_matches_path` (a response check): every `Allow` a target sends, on a 2xx to OPTIONS
 * and on a 405, names exactly the methods the spec declares on the path (with HEAD where GET
 * is, and OPTIONS), in any order and letter case; and a CORS preflight's
 * `Access-Control-Allow-Methods`, where `x-apikit-service.cors.allowMethods` says what it
 * lists (`Allow`: the same methods; or a fixed list), names exactly those. Judged on every
 * answer, whichever check asked: `allow_header_conformance` and `unsupported_method` judge
 * the one request they send each. A header that is absent is the presence checks' to judge
 * (a foreign target's 405 may carry none).
 */
export const allowMatchesPath: ResponseCheck = {
  kind: 'response',
  name: 'allow_matches_path',
  description:
    "Allow (OPTIONS, 405) and a preflight's Access-Control-Allow-Methods list exactly the path's declared methods",
  check(exchange, op, ctx): CheckFailure[] {
    const status = exchange.response.status;
    const answered = isOptions(exchange) && is2xx(status);
    if (!(answered || status === 405) || !addressesPath(exchange, op.path)) return [];
    const expected = pathMethods(ctx, op.path, answered);
    return [
      judgeList(exchange, 'Allow', expected, op),
      answered ? judgePreflight(exchange, expected, op, ctx) : undefined,
    ].filter((f): f is CheckFailure => f !== undefined);
  },
};

/** A preflight's Access-Control-Allow-Methods, where the contract says what it lists. */
function judgePreflight(
  exchange: Exchange,
  allow: MethodList,
  op: SpecOperation,
  ctx: RunContext,
): CheckFailure | undefined {
  if (requestHeader(exchange, 'access-control-request-method') === undefined) return undefined;
  const declared = serviceDeclaration(ctx.spec).cors?.allowMethods;
  if (declared === undefined) return undefined;
  const expected =
    declared === 'Allow' ? allow : { may: new Set(declared), must: new Set(declared) };
  return judgeList(exchange, 'Access-Control-Allow-Methods', expected, op);
}

function judgeList(
  exchange: Exchange,
  header: string,
  expected: MethodList,
  op: SpecOperation,
): CheckFailure | undefined {
  const value = exchange.headers.get(header);
  if (value === null) return undefined;
  const problem = methodListProblem(value, expected);
  if (problem === undefined) return undefined;
  return {
    message: `${header} of a ${exchange.response.status} to ${exchange.request.method} ${op.path} does not list the path's methods (${problem})`,
    expected: `${header}: ${methodListText(expected)}`,
    actual: `${header}: ${value}`,
  };
}
