import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledSpecJsonPath, loadBundledSpec } from './bundled-spec.js';
import { dereferenceDocument } from './dereference-document.js';

describe('loadBundledSpec', () => {
  it('gives the committed bundle dereferenced and frozen, and as compact JSON with its $refs', async () => {
    const text = readFileSync(bundledSpecJsonPath, 'utf8');
    const { spec, json } = await loadBundledSpec();
    expect(JSON.stringify(spec)).not.toContain('"$ref"');
    expect(JSON.parse(JSON.stringify(spec))).toEqual(
      JSON.parse(JSON.stringify(dereferenceDocument(JSON.parse(text) as object))),
    );
    expect(Object.isFrozen(spec)).toBe(true);
    expect(Object.isFrozen(spec.paths['/users'])).toBe(true);
    expect(json()).toBe(JSON.stringify(JSON.parse(text)));
    expect(json()).toContain('"$ref":"#/components/');
    expect(json()).toBe(json());
  });

  it('is read once per process', async () => {
    expect(await loadBundledSpec()).toBe(await loadBundledSpec());
  });
});
