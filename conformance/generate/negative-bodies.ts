import type { SpecOperation } from '../../spec/operations.js';
import { effectiveSchema, schemaType, type Schema } from '../../spec/schema/effective-schema.js';
import { withUniqueEmails } from '../../spec/schema/unique-emails.js';
import { applyAt, bodyPointer, type Mutation } from './body-mutation.js';
import type { NegativeCase } from './case-generator.js';
import { collectMutations } from './collect-mutations.js';
import { jsonRequestBody } from './json-request-body.js';
import { loneSurrogateBody } from './lone-surrogate-body.js';
import { describeJson, withArticle } from './negative-values.js';
import { branching, violatedPlaces } from './violated-places.js';
import { completeBody, type GeneratorDeps } from './positive-bodies.js';

/**
 * Negative body cases of an operation, each a valid body (every writable property present,
 * unique emails) with exactly one thing broken: a required property missing, a property of
 * the wrong type or null, a string too short or too long (in code points), a number out of
 * range or not an integer, a value outside its enum, a bad format or pattern, too many or
 * too few or repeated items, an unknown property, and, for the body as a whole: the wrong
 * JSON type, malformed JSON, a lone surrogate, and the wrong Content-Type (415). Cases the
 * schema would still accept (another `oneOf` branch, say) are dropped.
 */
export function negativeBodies(op: SpecOperation, deps: GeneratorDeps): NegativeCase[] {
  const body = jsonRequestBody(op);
  if (!body) return [];
  const base = completeBody(body, deps);
  const malformed: NegativeCase = {
    description: 'the body is not well-formed JSON (cut off after the first name)',
    pointer: '#',
    call: { rawBody: malformedJson(base) },
  };
  if (base === undefined) return [malformed];
  const fresh = () => withUniqueEmails(base, body.schema, deps.emails);

  const mutations: Mutation[] = [];
  collectMutations(body.schema, base, [], mutations, deps);
  const cases: NegativeCase[] = [];
  for (const m of mutations) {
    const value = applyAt(fresh(), m.segments, m.change);
    if (deps.validator.check(body.schema, value) === true) continue;
    cases.push({
      description: m.description,
      pointer: bodyPointer(m.segments),
      ...placesOf(body.schema, value, deps),
      call: { body: value },
    });
  }

  const rootType = schemaType(effectiveSchema(body.schema)) ?? 'object';
  const wrongRoot = rootType === 'array' ? {} : [];
  if (deps.validator.check(body.schema, wrongRoot) !== true) {
    cases.push({
      description: `the body is ${describeJson(wrongRoot)}, not ${withArticle(rootType)}`,
      pointer: '#',
      ...placesOf(body.schema, wrongRoot, deps),
      call: { body: wrongRoot },
    });
  }
  cases.push(malformed);
  const surrogate = loneSurrogateBody(body.schema, base, fresh);
  if (surrogate) cases.push(surrogate);
  cases.push({
    description:
      'the body sent with Content-Type text/plain instead of application/json ' +
      '(unsupported media type: 415)',
    pointer: '#/header/Content-Type',
    call: { body: fresh(), contentType: 'text/plain' },
  });
  cases.push({
    description: 'the body sent without a Content-Type (unsupported media type: 415)',
    pointer: '#/header/Content-Type',
    call: { body: fresh(), contentType: null },
  });
  return cases;
}

/** The places a case's body breaks, where the validator can say (see NegativeCase.places). */
function placesOf(
  schema: Schema,
  value: unknown,
  deps: GeneratorDeps,
): Pick<NegativeCase, 'places' | 'placesBranching'> {
  const errors = deps.validator.errors(schema, value);
  if (!errors?.length) return {};
  const places = violatedPlaces(errors);
  return branching(errors) ? { places, placesBranching: true } : { places };
}

function malformedJson(base: unknown): string {
  const first =
    base && typeof base === 'object' && !Array.isArray(base) ? Object.keys(base)[0] : undefined;
  return first === undefined ? '{' : `{${JSON.stringify(first)}: `;
}
