import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { declaredHttp } from '../../spec/apikit-extensions.js';
import { loadSpec } from '../../spec/load-spec.js';
import { ApiProblem } from '../domain/api-problem.js';
import {
  boundErrors,
  boundText,
  MAX_ERROR_TEXT,
  MAX_PROBLEM_DETAIL,
  MAX_PROBLEM_ERRORS,
} from './bound-errors.js';
import { renderProblem } from './problem-response.js';

const unknown = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ pointer: `#/u${i}`, detail: 'is not a known property' }));

describe('boundText', () => {
  it('keeps a text within the bound as it is', () => {
    expect(boundText('#/name', 200)).toBe('#/name');
    expect(boundText('a'.repeat(200), 200)).toBe('a'.repeat(200));
  });

  it('cuts a longer one to the bound, ending in …', () => {
    const cut = boundText(`#/${'a'.repeat(5000)}`, 200);
    expect(Array.from(cut)).toHaveLength(200);
    expect(cut).toBe(`#/${'a'.repeat(197)}…`);
  });

  it('counts code points, as maxLength does, and never splits a surrogate pair', () => {
    const astral = '😀'.repeat(200); // 400 UTF-16 units, 200 code points
    expect(boundText(astral, 200)).toBe(astral);
    const cut = boundText('😀'.repeat(300), 200);
    expect(Array.from(cut)).toHaveLength(200);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('boundErrors', () => {
  it('lists the first 100 entries in their order and counts the rest', () => {
    const { errors, omitted } = boundErrors(unknown(8000));
    expect(errors).toHaveLength(MAX_PROBLEM_ERRORS);
    expect(errors[0]?.pointer).toBe('#/u0');
    expect(errors[99]?.pointer).toBe('#/u99');
    expect(omitted).toBe(7900);
  });

  it('leaves nothing out when there are at most 100', () => {
    expect(boundErrors(unknown(100))).toEqual({ errors: unknown(100), omitted: 0 });
  });
});

describe('renderProblem, bounded', () => {
  it('says errorsOmitted only when entries were left out', () => {
    const render = (n: number) =>
      JSON.parse(
        renderProblem(
          new ApiProblem('validation-failed', 'x', { errors: unknown(n) }),
          '/api/v1/users',
          'r',
        ).body,
      );
    expect(render(100)).not.toHaveProperty('errorsOmitted');
    expect(render(101)).toMatchObject({ errorsOmitted: 1 });
    expect(render(101).errors).toHaveLength(100);
  });

  it("cuts an entry's pointer and detail, and the problem's detail", () => {
    const name = 'n'.repeat(10_000);
    const body = JSON.parse(
      renderProblem(
        new ApiProblem('validation-failed', `#/${name} is not a known property`, {
          errors: [{ pointer: `#/${name}`, detail: 'd'.repeat(10_000) }],
        }),
        '/api/v1/users',
        'r',
      ).body,
    );
    expect(body.errors[0].pointer).toMatch(/^#\/n+…$/);
    expect(Array.from(body.errors[0].pointer)).toHaveLength(MAX_ERROR_TEXT);
    expect(Array.from(body.errors[0].detail)).toHaveLength(MAX_ERROR_TEXT);
    expect(Array.from(body.detail)).toHaveLength(MAX_PROBLEM_DETAIL);
  });
});

describe('the bounds against the contract', () => {
  it('are the spec schemas and x-apikit-http.errorsLimit', async () => {
    const spec = await loadSpec();
    const schemas = spec.components?.schemas as Record<string, OpenAPIV3.SchemaObject>;
    const problem = schemas.Problem!.properties as Record<string, OpenAPIV3.SchemaObject>;
    const entry = schemas.ProblemError!.properties as Record<string, OpenAPIV3.SchemaObject>;
    expect(problem.errors?.maxItems).toBe(MAX_PROBLEM_ERRORS);
    expect(problem.detail?.maxLength).toBe(MAX_PROBLEM_DETAIL);
    expect(problem.errorsOmitted?.type).toBe('integer');
    expect(entry.pointer?.maxLength).toBe(MAX_ERROR_TEXT);
    expect(entry.detail?.maxLength).toBe(MAX_ERROR_TEXT);
    expect(declaredHttp(spec).errorsLimit).toEqual({
      maxItems: MAX_PROBLEM_ERRORS,
      omittedCount: 'errorsOmitted',
      maxLength: MAX_ERROR_TEXT,
    });
  });
});
