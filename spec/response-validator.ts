import type { Ajv, ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { createAjv } from './create-ajv.js';
import type { OpenApiDocument } from './load-spec.js';
import { listOperations, type SpecOperation } from './operations.js';

/** A way a response departs from what the spec documents for its operation. */
export interface ResponseViolation {
  /** status | content-type | body | header */
  kind: 'status' | 'content-type' | 'body' | 'header';
  message: string;
}

/** A response as seen on the wire: status, headers and the body text (null when none). */
export interface ObservedResponse {
  /** The request's method: a HEAD answer is judged like GET's, but without a body. */
  method?: string;
  status: number;
  headers: Headers;
  body: string | null;
}

/**
 * Checks responses against the spec: the status is documented (exactly or by its `4XX`
 * range or `default`), the media type is one documented for it, the body validates against
 * its schema (all violations listed), and headers that are present satisfy their schemas
 * while required ones are there. Shared by the server's tests, the mocks (which validate
 * every answer they send) and the conformance runner.
 *
 * @example
 * const check = new ResponseValidator(await loadSpec());
 * check.validate('getUser', { status: 200, headers, body }); // [] when it conforms
 */
export class ResponseValidator {
  private readonly ajv: Ajv;
  private readonly operations: Map<string, SpecOperation>;
  private readonly compiled = new Map<object, ValidateFunction>();

  constructor(doc: OpenApiDocument, ajv: Ajv = createAjv()) {
    this.ajv = ajv;
    this.operations = new Map(listOperations(doc).map((op) => [op.operationId, op]));
  }

  /** The documented response for a status (`404`, else `4XX`, else `default`). */
  documented(operationId: string, status: number): OpenAPIV3.ResponseObject | undefined {
    const op = this.operations.get(operationId);
    if (!op) return undefined;
    return (
      op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default
    );
  }

  validate(operationId: string, response: ObservedResponse): ResponseViolation[] {
    const op = this.operations.get(operationId);
    if (!op) return [{ kind: 'status', message: `unknown operation ${operationId}` }];
    const documented = this.documented(operationId, response.status);
    if (!documented) {
      return [
        {
          kind: 'status',
          message: `${response.status} is not documented for ${operationId} (documented: ${Object.keys(op.responses).join(', ')})`,
        },
      ];
    }
    const violations: ResponseViolation[] = [];
    const content = documented.content ?? {};
    const types = Object.keys(content);
    const hasBody = response.body !== null && response.body !== '';
    if (response.method?.toUpperCase() === 'HEAD') {
      if (hasBody) violations.push({ kind: 'body', message: 'a HEAD answer carries a body' });
    } else if (types.length === 0) {
      if (hasBody)
        violations.push({
          kind: 'body',
          message: `${response.status} documents no body but one was sent`,
        });
    } else if (!hasBody) {
      violations.push({
        kind: 'body',
        message: `${response.status} documents a ${types.join(' or ')} body but none was sent`,
      });
    } else {
      const sent = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const media = content[sent];
      if (!media) {
        violations.push({
          kind: 'content-type',
          message: `Content-Type is ${sent || '(none)'}; documented: ${types.join(', ')}`,
        });
      } else if (media.schema) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(response.body as string);
        } catch {
          violations.push({ kind: 'body', message: 'the body is not valid JSON' });
        }
        if (parsed !== undefined) {
          const validate = this.compile(media.schema as OpenAPIV3.SchemaObject);
          if (!validate(parsed)) {
            for (const e of validate.errors ?? []) {
              const extra =
                e.keyword === 'additionalProperties'
                  ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
                  : '';
              violations.push({
                kind: 'body',
                message: `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${extra}`,
              });
            }
          }
        }
      }
    }
    for (const [name, header] of Object.entries(documented.headers ?? {}) as [
      string,
      OpenAPIV3.HeaderObject,
    ][]) {
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required)
          violations.push({ kind: 'header', message: `required header ${name} is missing` });
        continue;
      }
      if (!header.schema) continue;
      const schema = header.schema as OpenAPIV3.SchemaObject;
      const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
      const validate = this.compile(schema);
      if (!validate(typed)) {
        violations.push({
          kind: 'header',
          message: `header ${name}: ${JSON.stringify(value)} ${validate.errors?.[0]?.message ?? 'is invalid'}`,
        });
      }
    }
    return violations;
  }

  private compile(schema: OpenAPIV3.SchemaObject): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}
