import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { declaredCacheControl } from './cache-extensions.js';
import { loadSpec } from './load-spec.js';

const doc = (http: unknown) => ({ 'x-apikit-http': http }) as unknown as OpenAPIV3.Document;

describe('declaredCacheControl', () => {
  it("reads the contract's policy of a write's answer", async () => {
    expect(declaredCacheControl(await loadSpec()).writes).toEqual(['private, no-cache']);
  });

  it('takes one policy or a list of them; anything else counts as absent', () => {
    expect(
      declaredCacheControl(doc({ cacheControl: { writes: ['no-store', 'private'] } })),
    ).toEqual({
      writes: ['no-store', 'private'],
    });
    expect(declaredCacheControl(doc({ cacheControl: { writes: 3 } })).writes).toEqual([]);
    expect(declaredCacheControl(doc({ cacheControl: 'no-store' })).writes).toEqual([]);
    expect(declaredCacheControl(doc(undefined)).writes).toEqual([]);
  });
});
