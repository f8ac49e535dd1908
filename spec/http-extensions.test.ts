import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { loadSpec } from './load-spec.js';
import { declaredHttp } from './http-extensions.js';

const doc = (http: unknown) => ({ 'x-apikit-http': http }) as unknown as OpenAPIV3.Document;

describe('x-apikit-http', () => {
  it('declares the contract page conventions, the titles as in the Errors table', async () => {
    const spec = await loadSpec();
    const declared = declaredHttp(spec);
    expect(declared).toMatchObject({
      strictRouting: true,
      versions: ['v1'],
      newestVersionAlias: true,
      unrecognizedMethodStatus: 501,
      utf8Charset: true,
      listEveryViolation: true,
      checkOrder: [
        'route',
        'method',
        'authentication',
        'authorization',
        'accept',
        'size',
        'media-type',
        'parameters',
        'resource',
        'preconditions',
        'body',
      ],
      dataSetDated: ['listRoles', 'listCategories', 'getCategory'],
      undatedLists: true,
      lastModifiedProperty: 'updatedAt',
      idempotencyAfterValidation: true,
      errorsLimit: { maxItems: 100, omittedCount: 'errorsOmitted', maxLength: 200 },
      headerLimit: { maxBytes: 16384, status: 431 },
    });
    // The service-wide 431, dereferenced: the Problem schema, no operation repeating it.
    const schema = declared.headerLimit?.response.content?.['application/problem+json']?.schema;
    expect(schema).toBe(spec.components?.schemas?.Problem);
    const table = [
      ...(spec.info.description ?? '').matchAll(/^\| \d{3} \| `([^`]+)` \| ([^|]+) \|/gm),
    ].map((m) => [m[1], m[2]!.trim()]);
    expect(table.length).toBeGreaterThan(20);
    expect(declared.problemTitles).toEqual(Object.fromEntries(table));
  });

  it('declares nothing without it, and counts values of the wrong type as absent', () => {
    expect(declaredHttp(doc(undefined))).toEqual({
      strictRouting: false,
      versions: [],
      newestVersionAlias: false,
      unrecognizedMethodStatus: undefined,
      utf8Charset: false,
      listEveryViolation: false,
      checkOrder: [],
      problemTitles: {},
      dataSetDated: [],
      undatedLists: false,
      idempotencyAfterValidation: false,
      errorsLimit: undefined,
      headerLimit: undefined,
    });
    const odd = declaredHttp(
      doc({
        strictRouting: 'yes',
        versions: ['1', 'v2'],
        problemTitles: { a: 1, b: 'B' },
        dataSetDated: ['listRoles', 3],
        undatedLists: 'yes',
        lastModifiedProperty: '',
        errorsLimit: { maxItems: '100', omittedCount: 'n', maxLength: 200 },
        headerLimit: { maxBytes: 16384, status: 431 },
      }),
    );
    expect(odd).toMatchObject({
      strictRouting: false,
      versions: ['v2'],
      problemTitles: { b: 'B' },
      dataSetDated: ['listRoles'],
      undatedLists: false,
      lastModifiedProperty: undefined,
      errorsLimit: undefined,
      headerLimit: undefined,
    });
  });
});
