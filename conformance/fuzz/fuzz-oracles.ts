import type { SpecOperation } from '../../spec/operations.js';
import type { ResponseValidator } from '../../spec/response-validator.js';
import { describeResponse } from '../checks/support/probe-support.js';
import type { Exchange } from '../http/target-client.js';
import { INJECTED_HEADER } from './fuzz-strings.js';

/** What the fuzzer holds every answer to; each is reported as its own check. */
export type FuzzOracle =
  'no_server_error' | 'response_conformance' | 'read_back' | 'header_injection';

export const FUZZ_ORACLES: readonly FuzzOracle[] = [
  'no_server_error',
  'response_conformance',
  'read_back',
  'header_injection',
];

/** One oracle's verdict against one exchange. */
export interface OracleFailure {
  oracle: FuzzOracle;
  message: string;
  expected?: string;
  actual?: string;
}

/**
 * The oracles that judge a single answer: no 5xx, everything the spec documents for the
 * operation and status (status, media type, body schema, headers), and headers that no fuzzed
 * value could split or bend (see `headerFailures`).
 *
 * @example
 * judgeExchange(ctx.validator, op, exchange); // [] when the answer is fine
 */
export function judgeExchange(
  validator: ResponseValidator,
  op: SpecOperation,
  exchange: Exchange,
): OracleFailure[] {
  const failures: OracleFailure[] = [];
  const status = exchange.response.status;
  if (status >= 500) {
    failures.push({
      oracle: 'no_server_error',
      message: `the server answered ${status} to a fuzzed request`,
      expected: 'a status below 500 (a 4xx for a bad request)',
      actual: describeResponse(exchange),
    });
  }
  const violations = validator.validate(op.operationId, {
    method: exchange.request.method,
    status,
    headers: exchange.headers,
    body: exchange.response.body || null,
  });
  for (const v of violations) {
    failures.push({
      oracle: 'response_conformance',
      message: `${v.kind}: ${v.message}`,
      expected: `the ${status} answer the spec documents for ${op.operationId}`,
      actual: describeResponse(exchange),
    });
  }
  for (const message of headerFailures(exchange.headers)) {
    failures.push({
      oracle: 'header_injection',
      message,
      expected: `no ${INJECTED_HEADER} header; Location and Link well-formed, without control characters`,
      actual: describeHeaders(exchange.headers),
    });
  }
  return failures;
}

/**
 * What is wrong with a response's headers from a header-injection point of view: a header
 * named INJECTED_HEADER (a fuzzed value split a line), control characters in any value, and a
 * Location or Link that is not well-formed (RFC 3986 URI references, RFC 8288 link values).
 */
export function headerFailures(headers: Headers): string[] {
  const out: string[] = [];
  headers.forEach((value, name) => {
    if (name.toLowerCase() === INJECTED_HEADER.toLowerCase())
      out.push(`the response carries ${INJECTED_HEADER}: a fuzzed value split a header line`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value))
      out.push(`header ${name} holds a control character`);
  });
  const location = headers.get('location');
  if (location !== null && !isUriReference(location))
    out.push(
      `Location is not a well-formed URI reference: ${JSON.stringify(location.slice(0, 200))}`,
    );
  const link = headers.get('link');
  if (link !== null && parseLinkHeader(link) === undefined)
    out.push(`Link is not a well-formed RFC 8288 header: ${JSON.stringify(link.slice(0, 300))}`);
  return out;
}

/** Characters of an RFC 3986 URI reference; `%` only as the start of an escape. */
const URI_REFERENCE = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/** True when text is an RFC 3986 URI reference (no spaces, quotes, angle brackets, controls). */
export function isUriReference(text: string): boolean {
  return URI_REFERENCE.test(text);
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * An RFC 8288 Link header as its link values (`<uri>; name=value; ...`), or undefined when it
 * is not well-formed: a target that is no URI reference, a parameter that is neither a token
 * nor a quoted string.
 *
 * @example
 * parseLinkHeader('</users?page=1>; rel="next"'); // [{ uri: '/users?page=1', params: { rel: 'next' } }]
 */
export function parseLinkHeader(
  value: string,
): { uri: string; params: Record<string, string> }[] | undefined {
  const links: { uri: string; params: Record<string, string> }[] = [];
  let i = 0;
  const ws = () => {
    while (value[i] === ' ' || value[i] === '\t') i++;
  };
  while (i < value.length) {
    ws();
    if (value[i] !== '<') return undefined;
    const end = value.indexOf('>', i);
    if (end < 0) return undefined;
    const uri = value.slice(i + 1, end);
    if (!isUriReference(uri)) return undefined;
    i = end + 1;
    const params: Record<string, string> = {};
    for (;;) {
      ws();
      if (value[i] !== ';') break;
      i++;
      ws();
      const name = /^[^=;,\s]+/.exec(value.slice(i))?.[0];
      if (!name || !TOKEN.test(name)) return undefined;
      i += name.length;
      ws();
      let param = '';
      if (value[i] === '=') {
        i++;
        ws();
        if (value[i] === '"') {
          const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(value.slice(i));
          if (!quoted) return undefined;
          param = (quoted[1] ?? '').replace(/\\(.)/g, '$1');
          i += quoted[0].length;
        } else {
          const token = /^[^;,\s]+/.exec(value.slice(i))?.[0];
          if (!token || !TOKEN.test(token)) return undefined;
          param = token;
          i += token.length;
        }
      }
      params[name.toLowerCase()] = param;
    }
    links.push({ uri, params });
    ws();
    if (i >= value.length) break;
    if (value[i] !== ',') return undefined;
    i++;
  }
  return links.length > 0 ? links : undefined;
}

function describeHeaders(headers: Headers): string {
  const shown: string[] = [];
  headers.forEach((value, name) => {
    if (/^(location|link|x-request-id)$/i.test(name) || name === INJECTED_HEADER.toLowerCase())
      shown.push(`${name}: ${JSON.stringify(value.slice(0, 300))}`);
  });
  return shown.join('; ') || '(no Location, Link or X-Request-Id)';
}
