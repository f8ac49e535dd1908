import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ResponseCheck } from '../check.js';

/** The first answer seen for one request and validator: what every later one must agree with. */
interface FirstRead {
  body: string;
  url: string;
}

/**
 * Per run (a RunContext), the first 200 seen for each request and ETag. Keyed by the run so
 * that two runs sharing the check never compare each other's answers.
 */
const firstReads = new WeakMap<RunContext, Map<string, FirstRead>>();

/** How much of each body a failure shows around the first difference. */
const SHOWN = 160;

/**
 * `same_validator_same_body` (a response check): an entity tag names one representation
 * (RFC 9110 8.8.3), so two 200 answers to the same GET (same URL with its query, same
 * `Accept`, same credential, same values of the headers `Vary` names) carrying the same ETag
 * agree: byte for byte under a strong tag, as the same JSON under a weak one. No timing
 * matters: whenever each was read, the same tag means the same representation. HEAD answers
 * carry no body, and a `Vary: *` answer is never the same request twice. Found by the mutation
 * harness (issue 32): a read answering another valid value in one member, a list with an item
 * less or twice, passed wherever the check that made the exchange did not look at the content.
 */
export const sameValidatorSameBody: ResponseCheck = {
  kind: 'response',
  name: 'same_validator_same_body',
  description:
    'Two 200 answers to the same GET with the same ETag have the same body (strong: byte-identical; weak: the same JSON)',
  check(exchange, _op, ctx): CheckFailure[] {
    const key = requestKey(exchange);
    if (key === undefined) return [];
    let seen = firstReads.get(ctx);
    if (!seen) firstReads.set(ctx, (seen = new Map()));
    const first = seen.get(key.id);
    if (!first) {
      seen.set(key.id, { body: exchange.response.body, url: exchange.request.url });
      return [];
    }
    if (agree(first.body, exchange.response.body, key.weak)) return [];
    return [
      {
        message: `two reads of ${exchange.request.url} with the same ETag ${key.etag} answered different bodies`,
        expected: `the body of the earlier read with ETag ${key.etag} (${key.weak ? 'the same JSON: weak' : 'byte-identical: strong'}): ${around(first.body, firstDifference(first.body, exchange.response.body))}`,
        actual: around(exchange.response.body, firstDifference(first.body, exchange.response.body)),
      },
    ];
  },
};

/**
 * What makes two answers the same request under the same validator: the GET's URL, its
 * `Accept` and `Authorization`, the request headers the answer's `Vary` names, and the ETag.
 * Undefined for an answer this check does not compare (not a GET 200 with an ETag, `Vary: *`).
 */
function requestKey(exchange: Exchange): { id: string; etag: string; weak: boolean } | undefined {
  const etag = exchange.headers.get('etag')?.trim();
  if (exchange.request.method !== 'GET' || exchange.response.status !== 200 || !etag)
    return undefined;
  const vary = (exchange.headers.get('vary') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (vary.includes('*')) return undefined;
  const names = [...new Set(['accept', 'authorization', ...vary])].sort();
  const sent = names.map((name) => `${name}: ${requestHeader(exchange, name) ?? '(none)'}`);
  return {
    id: [exchange.request.url, ...sent, `etag: ${etag}`].join('\n'),
    etag,
    weak: etag.startsWith('W/'),
  };
}

function requestHeader(exchange: Exchange, name: string): string | undefined {
  const headers = exchange.request.headers;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** Strong: the same bytes. Weak: the same JSON (key order aside); a non-JSON weak body: equal text. */
function agree(first: string, later: string, weak: boolean): boolean {
  if (first === later) return true;
  if (!weak) return false;
  const [a, b] = [parseJson(first), parseJson(later)];
  return a !== undefined && b !== undefined && isDeepStrictEqual(a, b);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The part of a body around `at`, so that a long body shows where it differs. */
function around(body: string, at: number): string {
  const start = Math.max(0, at - SHOWN / 2);
  const end = Math.min(body.length, start + SHOWN);
  return `${start > 0 ? '…' : ''}${body.slice(start, end)}${end < body.length ? '…' : ''}`;
}
