import { serverPath } from '../../spec/apikit-extensions.js';
import type { OpenApiDocument } from '../../spec/load-spec.js';
import { needsCredentials } from '../../spec/operation-security.js';
import type { SpecOperation } from '../../spec/operations.js';
import { ResponseValidator } from '../../spec/response-validator.js';
import { ConformanceSetupError } from '../conformance-options.js';
import type { Exchange, TargetClient } from '../http/target-client.js';

/** Statuses that say no route is there, whatever the spec documents for the operation. */
const NO_ROUTE = new Set([404, 405, 501]);

/**
 * Catches a base URL that is the origin (or any root) of an API whose spec puts it under a
 * server path: when the base URL's path does not end with the path of the spec's
 * `servers[0].url` (`/api/v1`), one GET without path parameters is sent below the base URL
 * and below the base URL plus that path. When only the second answers like the API (a status
 * and media type the spec documents for it, not 404, 405 or 501), the run stops with the URL to
 * use: it does not follow the server path by itself (decision 0098). Nothing is sent when the
 * path matches or the spec declares none.
 *
 * @example
 * await probeBaseUrl(client, spec, operations); // throws for http://host:3000 under /api/v1
 */
export async function probeBaseUrl(
  client: TargetClient,
  spec: OpenApiDocument,
  operations: SpecOperation[],
): Promise<void> {
  const declared = serverPath(spec);
  if (!declared || client.basePath.endsWith(declared)) return;
  const op = probeOperation(operations);
  if (!op) return;
  const validator = new ResponseValidator(spec);
  const send = (path: string) =>
    // Housekeeping: the probe addresses no operation of the run's scope.
    client.send({
      method: 'GET',
      path,
      headers: { Accept: 'application/json' },
      housekeeping: true,
    });
  const given = await send(op.path);
  if (answersLikeTheApi(validator, op, given)) return;
  const below = await send(declared + op.path);
  if (!answersLikeTheApi(validator, op, below)) return;
  throw new ConformanceSetupError(
    `give the API's base URL ${client.url(declared)}, not ${client.url('')}: the spec's servers[0] puts the API under ${declared} (GET ${below.request.url} answered ${below.response.status} as documented, GET ${given.request.url} ${describeAnswer(given)})`,
  );
}

/** Status and media type: a 200 of an HTML page is not the API's answer. */
function describeAnswer(ex: Exchange): string {
  const type = ex.headers.get('content-type')?.split(';')[0];
  return type ? `${ex.response.status} ${type}` : String(ex.response.status);
}

/** A GET the probe can send as is: no path parameter, no required query; open ones first. */
function probeOperation(operations: SpecOperation[]): SpecOperation | undefined {
  const plain = operations.filter(
    (op) =>
      op.method === 'get' &&
      !op.path.includes('{') &&
      !op.parameters.some((p) => p.required && p.in !== 'header'),
  );
  return plain.find((op) => !needsCredentials(op)) ?? plain[0];
}

/** A documented status (not one of no route) with a documented media type. */
function answersLikeTheApi(validator: ResponseValidator, op: SpecOperation, ex: Exchange): boolean {
  if (NO_ROUTE.has(ex.response.status)) return false;
  const violations = validator.validate(op.operationId, {
    method: 'GET',
    status: ex.response.status,
    headers: ex.headers,
    body: ex.response.body || null,
  });
  return !violations.some((v) => v.kind === 'status' || v.kind === 'content-type');
}
