import type { SpecOperation } from '../../spec/operations.js';
import { asSchema, type Schema } from '../../spec/schema/effective-schema.js';
import type { SeededRandom } from '../../spec/schema/seeded-random.js';
import type { Fuzzed } from './fuzz-parameters.js';
import { headerSafe } from './fuzz-strings.js';
import { FUZZ_FAMILIES, fuzzText, fuzzValue, type FuzzFamily } from './fuzz-values.js';

/** Longest header value sent (after encoding): see MAX_PARAMETER_CHARS. */
export const MAX_HEADER_CHARS = 1000;

const HEADER_SAMPLES: Record<string, readonly string[]> = {
  'if-match': ['*', '"abc"', 'W/"abc"', '"a", "b"', '""'],
  'if-none-match': ['*', '"abc"', 'W/"abc"', '"a", W/"b"'],
  'if-modified-since': [
    'Wed, 21 Oct 2015 07:28:00 GMT',
    'Thu, 01 Jan 1970 00:00:00 GMT',
    'yesterday',
  ],
};
const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=latin1',
  'application/merge-patch+json',
  'application/json;;',
  'application/x-www-form-urlencoded',
  'json',
];
const ACCEPTS = ['text/html', 'application/json;q=0', '*/*', 'application/xml', ';;;'];

/**
 * Request headers of a case: declared header parameters (If-Match, Idempotency-Key, ...) with
 * plausible or fuzzed values, sometimes X-Request-Id (which servers echo, so it is a header
 * injection target), a wrong Accept or Content-Type. Values are kept sendable (`headerSafe`).
 */
export function fuzzHeaders(
  op: SpecOperation,
  random: SeededRandom,
  uniqueKey: string,
  hasBody: boolean,
): Fuzzed<Record<string, string>> {
  const headers: Record<string, string> = {};
  const families: FuzzFamily[] = [];
  const what: string[] = [];
  const fuzzed = (name: string, schema: Schema) => {
    const family = random.pick(FUZZ_FAMILIES);
    const fuzz = fuzzValue(family, schema, random);
    // Each character becomes at least one: a prefix of the limit's length is enough to encode.
    const raw = fuzzText(fuzz);
    const safe = headerSafe(raw.slice(0, MAX_HEADER_CHARS));
    const cut = raw.length > MAX_HEADER_CHARS || safe.length > MAX_HEADER_CHARS;
    headers[name] = safe.slice(0, MAX_HEADER_CHARS).trim() || '%20';
    families.push(family);
    what.push(`header ${name}: ${fuzz.what}${cut ? ' (cut to fit a header)' : ''}`);
  };
  for (const param of op.parameters) {
    if (!('in' in param) || param.in !== 'header') continue;
    const roll = random.next();
    if (!param.required && roll < 0.6) continue;
    const lower = param.name.toLowerCase();
    if (roll < 0.8) {
      headers[param.name] =
        lower === 'idempotency-key' ? uniqueKey : random.pick(HEADER_SAMPLES[lower] ?? ['x']);
    } else fuzzed(param.name, asSchema(param.schema) as Schema);
  }
  const roll = random.next();
  if (roll < 0.2) fuzzed('X-Request-Id', { type: 'string' });
  else if (roll < 0.25) {
    headers['Accept'] = random.pick(ACCEPTS);
    what.push(`header Accept: ${headers['Accept']}`);
    families.push('wrong-type');
  } else if (roll < 0.32 && hasBody) {
    headers['Content-Type'] = random.pick(CONTENT_TYPES);
    what.push(`header Content-Type: ${headers['Content-Type']}`);
    families.push('wrong-type');
  }
  return { value: headers, families, what };
}
