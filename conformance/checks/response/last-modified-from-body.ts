import { declaredHttp } from '../../../spec/http-extensions.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { describe, isObject, isSuccess, jsonBody } from '../support/stateful-support.js';
import { toSecond } from './conditional-request.js';

/**
 * `last_modified_from_body` (a response check), where `x-apikit-http` declares
 * `lastModifiedProperty`: a successful answer carrying `Last-Modified` and a single resource
 * whose body has that date-time property is dated by it, to the second (RFC 9110 8.8.2: the
 * time the representation last changed). A representation embedding other resources (an
 * object, or a list of objects, among its properties) is dated by the newest of its parts:
 * then the date is not before the property, its own or an embedded part's. The `dataSetDated`
 * GETs are dated by the data set (`data_set_date_kept`). Found by the mutation harness
 * (issue 32): a Last-Modified an hour off, or an updatedAt altered in the same answer, passed.
 */
export const lastModifiedFromBody: ResponseCheck = {
  kind: 'response',
  name: 'last_modified_from_body',
  description:
    "A single resource's Last-Modified is its body's declared date-time (x-apikit-http lastModifiedProperty), to the second",
  check(exchange, op, ctx): CheckFailure[] {
    const declared = declaredHttp(ctx.spec);
    const property = declared.lastModifiedProperty;
    if (property === undefined || declared.dataSetDated.includes(op.operationId)) return [];
    if (!isSuccess(exchange.response.status)) return [];
    const header = exchange.headers.get('last-modified');
    const dated = header === null ? NaN : Date.parse(header);
    const body = jsonBody(exchange);
    // No date or no body (a HEAD), or a malformed date: response_headers_conformance's to judge.
    if (Number.isNaN(dated) || !isObject(body)) return [];
    const own = timeOf(body[property]);
    if (own === undefined) return [];
    const parts = embeddedParts(body);
    const newest = Math.max(own, ...parts.map((part) => timeOf(part[property]) ?? own));
    const fits = parts.length === 0 ? dated === toSecond(own) : dated >= toSecond(newest);
    if (fits) return [];
    const source = `${property} ${String(body[property])}`;
    return [
      {
        message:
          parts.length === 0
            ? `Last-Modified is not the body's ${property} (to the second)`
            : `Last-Modified is older than the body's ${property}: an embedding representation is dated by the newest of its parts`,
        expected:
          parts.length === 0
            ? `Last-Modified: ${new Date(toSecond(own)).toUTCString()} (${source})`
            : `Last-Modified not before ${new Date(toSecond(newest)).toUTCString()}`,
        actual: `${describe(exchange)}, Last-Modified: ${header}`,
      },
    ];
  },
};

/** The time of an RFC 3339 date-time, or undefined when the value is none. */
function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/** The resources a body embeds: its properties that are objects, or lists of objects. */
function embeddedParts(body: Record<string, unknown>): Record<string, unknown>[] {
  return Object.values(body).flatMap((value) =>
    isObject(value) ? [value] : Array.isArray(value) ? value.filter(isObject) : [],
  );
}
