import { describe, expect, it } from 'vitest';
import { unparsableJson } from './read-body.js';

describe('unparsableJson', () => {
  it('says why a JSON-typed body does not parse', () => {
    expect(unparsableJson('application/json', Buffer.from('{"a":'))).toMatch(
      /^the body is not valid JSON \(/,
    );
    expect(unparsableJson('application/merge-patch+json', Buffer.from('{'))).toBeDefined();
  });

  it('leaves alone valid, empty and other bodies', () => {
    expect(unparsableJson('application/json', Buffer.from('{"a":1}'))).toBeUndefined();
    expect(unparsableJson('application/json', Buffer.alloc(0))).toBeUndefined();
    expect(unparsableJson('text/plain', Buffer.from('{'))).toBeUndefined();
    expect(unparsableJson(undefined, Buffer.from('{'))).toBeUndefined();
  });
});
