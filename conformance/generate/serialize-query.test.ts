import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { serializeQuery } from './serialize-query.js';

const param = (extra: Partial<OpenAPIV3.ParameterObject> = {}): OpenAPIV3.ParameterObject => ({
  name: 'tag',
  in: 'query',
  ...extra,
});

describe('serializeQuery', () => {
  it('encodes a single value', () => {
    expect(serializeQuery(param(), 'tag', 'a b&c')).toBe('tag=a%20b%26c');
  });

  it('repeats the name for an exploded array (the form default)', () => {
    expect(serializeQuery(param(), 'tag', ['x', 'y,z'])).toBe('tag=x&tag=y%2Cz');
  });

  it('joins an array that is not exploded with commas, each item encoded', () => {
    expect(serializeQuery(param({ explode: false }), 'tag', ['x', 'a b'])).toBe('tag=x,a%20b');
  });
});
