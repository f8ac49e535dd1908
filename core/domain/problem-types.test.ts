import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { loadSpec } from '../../spec/load-spec.js';
import { PROBLEM_TYPES, problemTypeUri, type ProblemSlug } from './problem-types.js';

describe('the problem catalog', () => {
  it('lists exactly the problem types the spec documents', async () => {
    const doc = await loadSpec();
    const problem = doc.components?.schemas?.Problem as OpenAPIV3.SchemaObject;
    const type = problem.properties?.type as OpenAPIV3.SchemaObject;
    const slugs = Object.keys(PROBLEM_TYPES) as ProblemSlug[];
    expect([...(type.enum ?? [])].sort()).toEqual(slugs.map(problemTypeUri).sort());
  });

  it('documents each type with its status and title in the spec', async () => {
    const { info } = await loadSpec();
    for (const [slug, { status, title }] of Object.entries(PROBLEM_TYPES)) {
      expect(info.description).toContain(
        `| ${status} | \`${problemTypeUri(slug as ProblemSlug)}\` | ${title} |`,
      );
    }
  });
});
