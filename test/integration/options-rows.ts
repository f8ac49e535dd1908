import { expect } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import { pathParameterNames, samplePath } from './generic-rows.js';
import type { OperationRow } from './operation-row.js';

/** Request headers the contract lets a browser send cross-origin. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-Match',
  'If-None-Match',
  'Idempotency-Key',
  'X-Request-Id',
];

/** The `Allow` value the spec documents for an OPTIONS operation (its header example). */
export function documentedAllow(op: SpecOperation): string {
  const header = op.responses['204']?.headers?.Allow as OpenAPIV3.HeaderObject | undefined;
  if (typeof header?.example !== 'string') throw new Error(`${op.operationId}: no Allow example`);
  return header.example;
}

/**
 * Rows of every `options*` operation: a CORS preflight (204 with Allow as documented and the
 * Access-Control-* headers), the same for a URL whose ids and query would be 400 on any other
 * method (OPTIONS validates no parameter, decision 0016), and 404 for an unknown path next to
 * the operation's (its trailing-slash twin).
 */
export function optionsRows(operations: readonly SpecOperation[]): OperationRow[] {
  const rows: OperationRow[] = [];
  for (const op of operations) {
    if (op.method !== 'options') continue;
    const { operationId } = op;
    const path = samplePath(op);
    const allow = documentedAllow(op);
    const requestedMethod = allow.split(', ')[0] as string;
    rows.push({
      operationId,
      status: 204,
      name: `CORS preflight for ${requestedMethod}`,
      request: {
        method: 'OPTIONS',
        path,
        headers: {
          Origin: 'https://app.example',
          'Access-Control-Request-Method': requestedMethod,
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      },
      check(res) {
        expect(res.headers.get('allow')).toBe(allow);
        expect(res.headers.get('access-control-allow-methods')).toBe(allow);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(/,\s*/);
        expect(allowed).toEqual(expect.arrayContaining(CORS_ALLOWED_HEADERS));
        expect(res.headers.get('access-control-max-age')).toMatch(/^[0-9]+$/);
        expect(res.headers.get('accept-patch')).toBe(
          allow.includes('PATCH') ? 'application/json, application/merge-patch+json' : null,
        );
      },
    });
    const unchecked = pathParameterNames(op).reduce<Record<string, string>>(
      (values, name) => ({ ...values, [name]: 'abc' }),
      {},
    );
    rows.push({
      operationId,
      status: 204,
      name: 'a preflight of a URL with bad ids and an unknown parameter still succeeds',
      request: {
        method: 'OPTIONS',
        path: `${samplePath(op, unchecked)}?foo=1`,
        headers: {
          Origin: 'https://app.example',
          'Access-Control-Request-Method': requestedMethod,
        },
      },
      check(res) {
        expect(res.headers.get('allow')).toBe(allow);
      },
    });
    rows.push({
      operationId,
      status: 404,
      name: 'the unknown path with a trailing slash',
      request: { method: 'OPTIONS', path: `${path}/` },
      offRoute: true,
    });
  }
  return rows;
}
