import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { violatedPlaces } from '../../generate/violated-places.js';
import type { Schema } from '../../../spec/schema/effective-schema.js';
import { createSchemaValidator } from '../../../spec/schema/schema-validator.js';
import type { Exchange } from '../../http/target-client.js';
import { refusalFaults, violationsOfCase, type KnownViolations } from './refusal-entries.js';
import { violationsAtOnce } from './violations-at-once.js';

const spec = (http: object) =>
  ({
    openapi: '3.0.3',
    info: {},
    paths: {},
    'x-apikit-http': http,
  }) as unknown as OpenAPIV3.Document;
const listing = spec({ listEveryViolation: true });
const bounded = spec({
  listEveryViolation: true,
  errorsLimit: { maxItems: 2, omittedCount: 'errorsOmitted', maxLength: 12 },
});

function answer(status: number, body: object = {}): Exchange {
  return {
    request: { method: 'POST', url: 'http://h/x', headers: {}, body: '{}' },
    response: { status, headers: {}, body: JSON.stringify(body), durationMs: 1 },
    headers: new Headers({ 'content-type': 'application/problem+json' }),
  };
}
const problem = (...pointers: string[]) =>
  answer(400, { status: 400, errors: pointers.map((pointer) => ({ pointer, detail: 'bad' })) });
const known = (pointers: string[], more: Partial<KnownViolations> = {}): KnownViolations => ({
  what: 'the probe',
  pointers,
  only: true,
  ...more,
});
const messages = (s: OpenAPIV3.Document, e: Exchange, k: KnownViolations) =>
  refusalFaults(s, e, k).map((f) => f.message);

describe('refusalFaults', () => {
  it('fails any 2xx, whatever the spec declares', () => {
    expect(messages(spec({}), answer(201), known(['#/name']))).toEqual([
      'the probe was accepted with 201',
    ]);
  });

  it('leaves other refusals (401, 404, 409) and undeclared lists alone', () => {
    for (const status of [401, 403, 404, 409, 422])
      expect(messages(listing, answer(status), known(['#/name']))).toEqual([]);
    expect(messages(spec({}), problem(), known(['#/name']))).toEqual([]);
  });

  it('passes a 400 naming every broken place, and only those', () => {
    expect(messages(listing, problem('#/a', '#/b'), known(['#/a', '#/b']))).toEqual([]);
  });

  it('fails a 400 that drops a broken place, or lists none at all', () => {
    expect(messages(listing, problem('#/a'), known(['#/a', '#/b']))).toEqual([
      'the 400 to the probe lists 1 entry for 2 violated constraint(s), none at #/b',
    ]);
    expect(messages(listing, answer(400, { status: 400 }), known(['#/a']))).toEqual([
      'the 400 to the probe has no errors list',
    ]);
  });

  it('fails an entry at the parent of the broken member, or at a place not broken', () => {
    expect(messages(listing, problem('#/items/0'), known(['#/items/0/quantity']))).toHaveLength(2);
    expect(messages(listing, problem('#/a', '#/c'), known(['#/a']))).toEqual([
      'the 400 to the probe points at "#/c", which the request did not break',
    ]);
    expect(messages(listing, problem('#/a', '#/c'), known(['#/a'], { only: false }))).toEqual([]);
  });

  it('takes any one of the places a change breaks when it breaks a parent rule too', () => {
    const k = known([], { someOf: ['#/extra', '#'] });
    expect(messages(listing, problem('#'), k)).toEqual([]);
    expect(messages(listing, problem('#/other'), k)).toHaveLength(2);
  });

  it('counts, over the bound, the listed and omitted entries, and takes a cut pointer', () => {
    const many = known(['#/a', '#/b', '#/c']);
    const cut = answer(400, { errors: [{ pointer: '#/a' }, { pointer: '#/b' }], errorsOmitted: 1 });
    expect(messages(bounded, cut, many)).toEqual([]);
    const short = answer(400, { errors: [{ pointer: '#/a' }, { pointer: '#/b' }] });
    expect(messages(bounded, short, many)).toEqual([
      'the 400 to the probe lists 2 entries for 3 violated constraint(s)',
    ]);
    expect(messages(bounded, problem('#/apikit-unk…'), known(['#/apikit-unknown-xxxx']))).toEqual(
      [],
    );
  });
});

describe('the places a negative case breaks', () => {
  const validator = createSchemaValidator();
  const schema: Schema = { type: 'object', additionalProperties: false, maxProperties: 0 };

  it('are read from the schema: an unknown property of an empty object breaks it too, both named', () => {
    const places = violatedPlaces(validator.errors(schema, { extra: 1 }) ?? []);
    expect(places.sort()).toEqual(['#', '#/extra']);
    const c = { description: 'extra', pointer: '#/extra', places, call: {} };
    expect(violationsOfCase(c).pointers.sort()).toEqual(['#', '#/extra']);
    const branches = violationsOfCase({ ...c, placesBranching: true });
    expect(branches).toMatchObject({ pointers: [], someOf: ['#/extra', '#'] });
  });

  it('name a missing property by itself, and a clean case by its own pointer alone', () => {
    const required: Schema = { type: 'object', required: ['name'], properties: { name: {} } };
    expect(violatedPlaces(validator.errors(required, {}) ?? [])).toEqual(['#/name']);
    const c = { description: 'missing', pointer: '#/name', places: ['#/name'], call: {} };
    expect(violationsOfCase(c)).toMatchObject({ pointers: ['#/name'], only: true });
    expect(violationsAtOnce([c, { ...c, pointer: '#/age', places: ['#/age'] }])).toMatchObject({
      what: 'a body breaking 2 constraints at once (missing; missing)',
      pointers: ['#/name', '#/age'],
    });
  });
});
