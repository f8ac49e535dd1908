import { acceptsCredentials } from '../../spec/operation-security.js';
import type { SpecOperation } from '../../spec/operations.js';
import type { OperationRow, RowRequest } from './operation-row.js';

/** Path values that name existing demo data (user 2, order 7 of user 2, role USER). */
const SAMPLE_VALUES: Readonly<Record<string, string>> = {
  id: '2',
  userId: '2',
  orderId: '7',
  roleId: '1',
};

/** Operations that also get a row with a garbage bearer token (401 invalid_token). */
const GARBAGE_TOKEN_OPERATIONS = new Set([
  'listUsers',
  'getUser',
  'createUser',
  'updateUser',
  'getOrder',
  'blockUser',
  'resetData',
]);

/** A body just over the 100 KiB limit, as well-formed JSON. */
export const OVERSIZED_JSON = JSON.stringify({ name: 'x'.repeat(100 * 1024) });

/** The operation's path with sample values, some of them overridden. */
export function samplePath(op: SpecOperation, override: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = override[name] ?? SAMPLE_VALUES[name];
    if (value === undefined) throw new Error(`no sample value for {${name}} in ${op.path}`);
    return value;
  });
}

/** The names of the operation's path parameters, in path order. */
export function pathParameterNames(op: SpecOperation): string[] {
  return [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/** A request that gets past the media-type checks: `{}` as JSON where the operation takes a body. */
export function sampleRequest(
  op: SpecOperation,
  override: Record<string, string> = {},
): RowRequest {
  return {
    method: op.method.toUpperCase(),
    path: samplePath(op, override),
    ...(op.requestBody ? { json: {} } : {}),
  };
}

/**
 * The rows every operation gets alike, generated from the spec so that none is forgotten: 401
 * without a token (and with a garbage one on a few), 406 for `Accept: text/html`, 400 for an
 * unknown query parameter and for each path id that is not a positive integer, and, where
 * the operation takes a body, 413 over 100 KiB and 415 for text/plain. They are judged before
 * any resource is looked up (check order), so the sample ids need not matter and nothing is
 * changed.
 */
export function genericRows(operations: readonly SpecOperation[]): OperationRow[] {
  const rows: OperationRow[] = [];
  for (const op of operations) {
    if (op.method === 'options') continue;
    const { operationId } = op;
    const method = op.method.toUpperCase();
    const path = samplePath(op);
    if (acceptsCredentials(op)) {
      rows.push({
        operationId,
        status: 401,
        name: 'no token',
        as: 'anonymous',
        request: { method, path },
      });
      if (GARBAGE_TOKEN_OPERATIONS.has(operationId)) {
        rows.push({
          operationId,
          status: 401,
          name: 'a bearer token that is not a JWT',
          as: 'garbage',
          request: { method, path },
        });
      }
    }
    if (op.responses['406']) {
      rows.push({
        operationId,
        status: 406,
        name: 'Accept: text/html',
        request: { method, path, headers: { Accept: 'text/html' } },
      });
    }
    rows.push({
      operationId,
      status: 400,
      name: 'unknown query parameter',
      request: { ...sampleRequest(op), path: `${path}?foo=1` },
      pointers: ['#/query/foo'],
    });
    for (const name of pathParameterNames(op)) {
      rows.push({
        operationId,
        status: 400,
        name: `{${name}} is not a positive integer`,
        request: sampleRequest(op, { [name]: 'abc' }),
        pointers: [`#/path/${name}`],
      });
    }
    if (op.requestBody) {
      rows.push({
        operationId,
        status: 413,
        name: 'a body over 100 KiB',
        request: {
          method,
          path,
          headers: { 'Content-Type': 'application/json' },
          raw: OVERSIZED_JSON,
        },
      });
      rows.push({
        operationId,
        status: 415,
        name: 'a text/plain body',
        request: { method, path, headers: { 'Content-Type': 'text/plain' }, raw: 'name=x' },
      });
    }
  }
  return rows;
}
