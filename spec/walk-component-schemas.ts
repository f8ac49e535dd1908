import type { OpenAPIV3 } from 'openapi-types';
import type { OpenApiDocument } from './load-spec.js';
import { jsonPointer } from './json-pointer.js';

/**
 * Visits every schema below components.schemas once. `siblings` holds the property names
 * that the other parts of an enclosing `allOf` (and the schema holding it) define.
 */
export function walkComponentSchemas(
  doc: OpenApiDocument,
  visit: (schema: OpenAPIV3.SchemaObject, at: string, siblings: Set<string>) => void,
): void {
  const seen = new Set<object>();
  const walk = (
    schema: OpenAPIV3.SchemaObject | undefined,
    at: (string | number)[],
    siblings: Set<string>,
  ) => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    visit(schema, jsonPointer(at), siblings);
    for (const [name, child] of Object.entries(schema.properties ?? {}))
      walk(child as OpenAPIV3.SchemaObject, [...at, 'properties', name], new Set());
    if ('items' in schema)
      walk(schema.items as OpenAPIV3.SchemaObject, [...at, 'items'], new Set());
    const composed = new Set([
      ...siblings,
      ...Object.keys(schema.properties ?? {}),
      ...(schema.allOf ?? []).flatMap((part) =>
        Object.keys((part as OpenAPIV3.SchemaObject).properties ?? {}),
      ),
    ]);
    schema.allOf?.forEach((c, i) =>
      walk(c as OpenAPIV3.SchemaObject, [...at, 'allOf', i], composed),
    );
    for (const key of ['oneOf', 'anyOf'] as const)
      schema[key]?.forEach((c, i) => walk(c as OpenAPIV3.SchemaObject, [...at, key, i], new Set()));
  };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
    walk(schema as OpenAPIV3.SchemaObject, ['components', 'schemas', name], new Set());
}
