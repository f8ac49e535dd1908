import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { CheckFailure } from '../check.js';
import {
  isDateTime,
  isObject,
  properties,
  requestSchema,
  responseSchema,
  type Schema,
} from './stateful-support.js';

/**
 * The answers that show the resource as the write left it: a 201 to POST or PUT (what was
 * made) and a 200 to PUT or PATCH (what was changed). A 200 to a POST is an action's answer
 * (a login, a token refresh) whose members may legitimately differ from the request's.
 */
function showsTheWrite(method: string, status: number): boolean {
  if (status === 201) return method === 'post' || method === 'put';
  return status === 200 && (method === 'put' || method === 'patch');
}

/**
 * The members a write sent, echoed with the same value in its answer: each top-level member
 * that both the request and the answer schema declare, marked neither readOnly (ignored when
 * sent) nor writeOnly (never shown), and that the answer holds. Only scalar values are
 * compared: an array or an object may be answered with members the server adds (ids, links).
 * A PATCH's null removes a member (RFC 7396), so it is not compared; a date-time is compared
 * as the instant it names, in whatever form the server writes it.
 */
export function echoFailures(
  exchange: Exchange,
  op: SpecOperation,
  answer: unknown,
): CheckFailure[] {
  if (!showsTheWrite(op.method, exchange.response.status) || !isObject(answer)) return [];
  const sent = sentBody(exchange);
  if (!isObject(sent)) return [];
  const request = properties(requestSchema(op));
  const response = properties(responseSchema(op, exchange.response.status));
  const differing = Object.entries(sent).filter(([member, value]) => {
    const declared = [request[member], response[member]];
    if (declared.some((s) => s === undefined || hidden(s))) return false;
    if (!isScalar(value) || (value === null && op.method === 'patch')) return false;
    if (!(member in answer)) return false;
    return !sameValue(value, answer[member], response[member]);
  });
  if (differing.length === 0) return [];
  const shown = (body: Record<string, unknown>) =>
    JSON.stringify(Object.fromEntries(differing.map(([member]) => [member, body[member]])));
  return [
    {
      message: `the ${exchange.response.status} answer does not hold the value${differing.length === 1 ? '' : 's'} the request sent for ${differing.map(([m]) => m).join(', ')}`,
      expected: shown(sent),
      actual: shown(answer),
    },
  ];
}

function sentBody(exchange: Exchange): unknown {
  try {
    return JSON.parse(exchange.request.body ?? '');
  } catch {
    return undefined;
  }
}

/** A property a client sends without seeing it echoed: readOnly or writeOnly. */
function hidden(schema: Schema | undefined): boolean {
  if (!schema) return false;
  return (
    schema.readOnly === true ||
    schema.writeOnly === true ||
    ((schema.allOf ?? []) as Schema[]).some((part) => hidden(part))
  );
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function sameValue(sent: unknown, answered: unknown, schema: Schema | undefined): boolean {
  if (isDateTime(schema) && typeof sent === 'string' && typeof answered === 'string')
    return Date.parse(sent) === Date.parse(answered);
  return sent === answered;
}
