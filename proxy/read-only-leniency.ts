import type { OpenAPIV3 } from 'openapi-types';
import { declaredValidation } from '../spec/apikit-extensions.js';
import type { OpenApiDocument } from '../spec/load-spec.js';
import { listOperations } from '../spec/operations.js';
import type { ReportedViolation } from './parse-violations.js';

/** Prism's wording for a property its request schema does not allow (readOnly ones removed). */
const EXTRA_PROPERTY = /must NOT have additional properties; found '([^']+)'/;

/**
 * Where a description declares `x-apikit-validation.ignoreReadOnlyProperties` (read-only
 * fields in a request body are accepted and ignored), Prism still reports them: OpenAPI says
 * they SHOULD NOT be sent, and Prism drops them from the request schema. This filter removes
 * exactly those findings (a readOnly property of the operation's own request schema), so a
 * backend honouring its contract is not blamed; anything else Prism reports stays.
 *
 * @example
 * const lenient = readOnlyLeniency(doc);
 * lenient('updateUser', reported); // without "found 'id'" where id is readOnly there
 */
export function readOnlyLeniency(
  doc: OpenApiDocument,
): (operationId: string | undefined, reported: ReportedViolation[]) => ReportedViolation[] {
  if (!declaredValidation(doc).ignoreReadOnlyProperties) return (_id, reported) => reported;
  const readOnly = new Map<string, Set<string>>();
  for (const op of listOperations(doc)) {
    const schema = op.requestBody?.content?.['application/json']?.schema as
      OpenAPIV3.SchemaObject | undefined;
    const names = Object.entries(schema?.properties ?? {})
      .filter(([, property]) => (property as OpenAPIV3.SchemaObject).readOnly === true)
      .map(([name]) => name);
    if (names.length > 0) readOnly.set(op.operationId, new Set(names));
  }
  return (operationId, reported) => {
    const ignored = operationId === undefined ? undefined : readOnly.get(operationId);
    if (!ignored) return reported;
    return reported.filter((finding) => {
      const extra = finding.location.startsWith('request')
        ? EXTRA_PROPERTY.exec(finding.message)?.[1]
        : undefined;
      return extra === undefined || !ignored.has(extra);
    });
  };
}
