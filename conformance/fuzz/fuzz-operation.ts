import type { OpenAPIV3 } from 'openapi-types';
import { isUnsafeMethod, type SpecOperation } from '../../spec/operations.js';
import type { CaseGenerator } from '../generate/case-generator.js';
import { jsonRequestBody } from '../generate/json-request-body.js';
import type { SeededRandom } from '../../spec/schema/seeded-random.js';
import { withUniqueEmails, type EmailSource } from '../../spec/schema/unique-emails.js';
import { fuzzBody } from './fuzz-body.js';
import { fuzzHeaders } from './fuzz-headers.js';
import { fuzzPathParameter, fuzzQuery, plainQuery, type PathChoice } from './fuzz-parameters.js';
import type { FuzzFamily } from './fuzz-values.js';

/** One fuzzed request of an operation, reproducible from the seed and its index. */
export interface FuzzCase {
  operationId: string;
  /** 0-based, per operation: with the seed, names the case. */
  index: number;
  families: FuzzFamily[];
  /** What was broken, in words; empty for a valid request. */
  what: string[];
  path: Record<string, PathChoice>;
  /** The query string without `?` ('' for none). */
  query: string;
  headers: Record<string, string>;
  /** The body text; undefined sends none. */
  body?: string;
}

/** Valid bases a case starts from, made once per operation. */
export interface FuzzBases {
  bodies: unknown[];
  queries: Record<string, unknown>[];
  /** A copy of a base body with fresh unique emails, so that repeated creates do not clash. */
  freshen(body: unknown): unknown;
}

/**
 * Valid bodies and queries to mutate: examples first, then generated (every `format: email`
 * unique), so that a good share of cases is accepted and can be read back.
 */
export function fuzzBases(
  op: SpecOperation,
  generate: CaseGenerator,
  count: number,
  emails: EmailSource,
): FuzzBases {
  const n = Math.max(1, Math.min(count, 32));
  const body = jsonRequestBody(op);
  return {
    freshen: (value) => (body ? withUniqueEmails(value, body.schema, emails) : value),
    bodies: body ? generate.positiveBodies(op, n) : [],
    queries: op.parameters.some((p) => 'in' in p && p.in === 'query')
      ? generate.positiveQueries(op, n)
      : [],
  };
}

/**
 * The `index`th fuzz case of an operation. The body, path parameters, query and headers are
 * each fuzzed in some cases and valid in the others, so that one broken part at a time is
 * judged as often as several together; about one case in six is wholly valid.
 * Never sends to an unsafe operation a path value a lax server could read as an existing id.
 *
 * @example
 * fuzzCase(createUser, 3, bases, seededRandom(42).fork('createUser'), 'run1');
 */
export function fuzzCase(
  op: SpecOperation,
  index: number,
  bases: FuzzBases,
  opRandom: SeededRandom,
  keyTag: string,
): FuzzCase {
  const random = opRandom.fork(`case:${index}`);
  const families: FuzzFamily[] = [];
  const what: string[] = [];
  const add = (part: { families: FuzzFamily[]; what: string[] }) => {
    families.push(...part.families);
    what.push(...part.what);
  };
  const body = jsonRequestBody(op);
  const pathParams = op.parameters.filter(
    (p): p is OpenAPIV3.ParameterObject => 'in' in p && p.in === 'path',
  );
  const valid = random.next() < 0.16;
  // Each part is fuzzed on its own roll, at least one of them unless the case is valid.
  const parts = ['body', 'path', 'query', 'headers'].filter(
    (part) =>
      (part === 'body' && body) ||
      (part === 'path' && pathParams.length > 0) ||
      part === 'query' ||
      part === 'headers',
  );
  const chosen = new Set<string>();
  if (!valid) {
    chosen.add(random.pick(parts));
    for (const part of parts) if (random.next() < 0.2) chosen.add(part);
  }

  const path: Record<string, PathChoice> = {};
  for (const param of pathParams) {
    if (chosen.has('path')) {
      const fuzzed = fuzzPathParameter(param, isUnsafeMethod(op.method), random);
      path[param.name] = fuzzed.value;
      add(fuzzed);
    } else path[param.name] = { kind: 'fixture', variant: 'exact' };
  }

  const validQuery = bases.queries.length > 0 ? random.pick(bases.queries) : {};
  let query = plainQuery(validQuery);
  if (chosen.has('query')) {
    const fuzzed = fuzzQuery(op, validQuery, random);
    query = fuzzed.value;
    add(fuzzed);
  }

  const base = bases.bodies.length > 0 ? bases.freshen(random.pick(bases.bodies)) : undefined;
  let text: string | undefined;
  if (body) {
    if (chosen.has('body')) {
      const fuzzed = fuzzBody(base, body.schema, random);
      text = fuzzed.text;
      add(fuzzed);
    } else if (base !== undefined) text = JSON.stringify(base);
  }

  const headers: Record<string, string> = {};
  if (chosen.has('headers')) {
    const fuzzed = fuzzHeaders(op, random, `fuzz-${keyTag}-${op.operationId}-${index}`, !!body);
    Object.assign(headers, fuzzed.value);
    add(fuzzed);
  }
  return {
    operationId: op.operationId,
    index,
    families: [...new Set(families)],
    what: what.filter((w) => w !== 'a valid body'),
    path,
    query,
    headers,
    ...(text !== undefined ? { body: text } : {}),
  };
}
