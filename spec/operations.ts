import type { OpenAPIV3 } from 'openapi-types';
import type { OpenApiDocument } from './load-spec.js';

/** The HTTP methods an OpenAPI 3.0 path item can declare, lower-case as in the document. */
export const HTTP_METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The methods that change state (RFC 9110, 9.2.1): what the runner treats as writes. */
const UNSAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['post', 'put', 'patch', 'delete']);

/** Whether `method` may change state on the target (POST, PUT, PATCH, DELETE). */
export function isUnsafeMethod(method: HttpMethod): boolean {
  return UNSAFE_METHODS.has(method);
}

/** One operation of a dereferenced description, with path-level parameters merged in. */
export interface SpecOperation {
  operationId: string;
  method: HttpMethod;
  /** The path template as written in the description, e.g. `/users/{id}`. */
  path: string;
  tags: string[];
  summary: string | undefined;
  /** Path-level and operation-level parameters; the operation's win on the same name and `in`. */
  parameters: OpenAPIV3.ParameterObject[];
  requestBody: OpenAPIV3.RequestBodyObject | undefined;
  responses: Record<string, OpenAPIV3.ResponseObject>;
  /** The effective security requirements: the operation's own, else the document's. */
  security: OpenAPIV3.SecurityRequirementObject[];
  operation: OpenAPIV3.OperationObject;
}

const cache = new WeakMap<OpenApiDocument, SpecOperation[]>();

/**
 * Every operation of a dereferenced description, in document order.
 *
 * @example
 * const ops = listOperations(await loadSpec());
 * ops.find((op) => op.operationId === 'getUser')?.path; // '/users/{id}'
 */
export function listOperations(doc: OpenApiDocument): SpecOperation[] {
  let operations = cache.get(doc);
  if (operations) return operations;
  operations = [];
  for (const [path, pathItem] of Object.entries(doc.paths ?? {})) {
    if (!pathItem) continue;
    const shared = (pathItem.parameters ?? []) as OpenAPIV3.ParameterObject[];
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      const own = (operation.parameters ?? []) as OpenAPIV3.ParameterObject[];
      const parameters = [
        ...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)),
        ...own,
      ];
      operations.push({
        operationId: operation.operationId ?? `${method} ${path}`,
        method,
        path,
        tags: operation.tags ?? [],
        summary: operation.summary,
        parameters,
        requestBody: operation.requestBody as OpenAPIV3.RequestBodyObject | undefined,
        responses: operation.responses as Record<string, OpenAPIV3.ResponseObject>,
        security: operation.security ?? doc.security ?? [],
        operation,
      });
    }
  }
  cache.set(doc, operations);
  return operations;
}

/** The operation with that `operationId`, or `undefined`. */
export function findOperation(
  doc: OpenApiDocument,
  operationId: string,
): SpecOperation | undefined {
  return listOperations(doc).find((op) => op.operationId === operationId);
}
