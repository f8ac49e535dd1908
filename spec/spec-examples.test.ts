import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { loadSpec, type OpenApiDocument } from './load-spec.js';
import { collectExamples, findInvalidExamples } from './spec-examples.js';
import { listOperations } from './operations.js';

describe('examples in the contract', () => {
  it('every example validates against its schema (ajv with formats)', async () => {
    const doc = await loadSpec();
    expect(collectExamples(doc).length).toBeGreaterThan(100);
    expect(findInvalidExamples(doc)).toEqual([]);
  });

  it('every component schema carries an example', async () => {
    const doc = await loadSpec();
    const missing = Object.entries(doc.components?.schemas ?? {})
      .filter(([, schema]) => (schema as OpenAPIV3.SchemaObject).example === undefined)
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('every request and response body has an example', async () => {
    const doc = await loadSpec();
    const missing: string[] = [];
    for (const op of listOperations(doc)) {
      const bodies: [string, OpenAPIV3.MediaTypeObject][] = [
        ...Object.entries(op.requestBody?.content ?? {}).map(
          ([type, m]) =>
            [`${op.operationId} request ${type}`, m] as [string, OpenAPIV3.MediaTypeObject],
        ),
        ...Object.entries(op.responses).flatMap(([status, r]) =>
          Object.entries(r.content ?? {}).map(
            ([type, m]) =>
              [`${op.operationId} ${status} ${type}`, m] as [string, OpenAPIV3.MediaTypeObject],
          ),
        ),
      ];
      for (const [where, media] of bodies) {
        const hasExample =
          media.example !== undefined || Object.keys(media.examples ?? {}).length > 0;
        const schemaExample = (media.schema as OpenAPIV3.SchemaObject | undefined)?.example;
        if (!hasExample && schemaExample === undefined) missing.push(where);
      }
    }
    expect(missing).toEqual([]);
  });

  it('finds an example that breaks its schema, and says where and why', () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1.0.0' },
      paths: {},
      components: {
        schemas: {
          User: {
            type: 'object',
            required: ['email'],
            properties: {
              email: { type: 'string', format: 'email' },
              age: { type: 'integer', minimum: 18, nullable: true },
            },
            example: { email: 'not-an-email', age: 12 },
          },
        },
      },
    } as unknown as OpenApiDocument;
    const violations = findInvalidExamples(doc);
    expect(violations.map((v) => v.pointer)).toEqual([
      '/components/schemas/User/example',
      '/components/schemas/User/example',
    ]);
    expect(violations.map((v) => v.message).join('\n')).toMatch(
      /\/email must match format "email"/,
    );
    expect(violations.map((v) => v.message).join('\n')).toMatch(/\/age must be >= 18/);
  });
});
