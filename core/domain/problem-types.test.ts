import { describe, expect, expectTypeOf, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import type { components } from '../../spec/openapi-types.js';
import { loadSpec } from '../../spec/load-spec.js';
import { PROBLEM_TYPES, problemTypeUri, type ProblemSlug } from './problem-types.js';

/** The rows of the spec's table of problem types (in the API description), by slug. */
function documentedRows(description: string): Record<string, { status: number; title: string }> {
  const row = /^\| (\d{3}) \| `urn:apikit:problem:([a-z-]+)` \| ([^|]+?) \|/gm;
  return Object.fromEntries(
    [...description.matchAll(row)].map(([, status, slug, title]) => [
      slug,
      { status: Number(status), title },
    ]),
  );
}

/** Every object of the spec (examples included) that carries a problem type URI. */
function problemsIn(value: unknown): Record<string, unknown>[] {
  if (typeof value !== 'object' || value === null) return [];
  const own =
    typeof Reflect.get(value, 'type') === 'string' &&
    String(Reflect.get(value, 'type')).startsWith('urn:apikit:problem:')
      ? [value as Record<string, unknown>]
      : [];
  return [...own, ...Object.values(value).flatMap(problemsIn)];
}

describe('the problem catalog against the spec', () => {
  it('has exactly the kinds of the Problem.type enum (also at compile time)', async () => {
    type SpecUri = components['schemas']['Problem']['type'];
    expectTypeOf<`urn:apikit:problem:${ProblemSlug}`>().toEqualTypeOf<SpecUri>();
    const doc = await loadSpec();
    const problem = doc.components?.schemas?.Problem as OpenAPIV3.SchemaObject;
    const type = problem.properties?.type as OpenAPIV3.SchemaObject;
    const slugs = Object.keys(PROBLEM_TYPES) as ProblemSlug[];
    expect([...(type.enum ?? [])].sort()).toEqual(slugs.map(problemTypeUri).sort());
  });

  it('equals the table of problem types in the API description, row by row', async () => {
    const { info } = await loadSpec();
    expect(documentedRows(info.description ?? '')).toEqual(PROBLEM_TYPES);
  });

  it('agrees with every problem example of the spec on title and status', async () => {
    const examples = problemsIn(await loadSpec());
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const slug = String(example.type).slice('urn:apikit:problem:'.length) as ProblemSlug;
      const { status, title } = PROBLEM_TYPES[slug];
      expect({ type: example.type, title: example.title }).toEqual({ type: example.type, title });
      if (example.status !== undefined) expect(example.status).toBe(status);
    }
  });
});
