import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleSpec, loadSpec } from './load-spec.js';
import { dereferenceDocument } from './dereference-document.js';
import { specPath } from './spec-path.js';

describe('the bundled description for runtimes without a file system', () => {
  it('spec/openapi.json is the current bundle of spec/openapi.yaml (run `npm run gen:types` when not)', async () => {
    const committed = JSON.parse(readFileSync(join(specPath, '..', 'openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(await bundleSpec())));
  });

  it('dereferences to the same document swagger-parser makes', async () => {
    const committed = JSON.parse(readFileSync(join(specPath, '..', 'openapi.json'), 'utf8'));
    const ours = dereferenceDocument(committed);
    expect(JSON.stringify(ours)).not.toContain('"$ref"');
    expect(JSON.parse(JSON.stringify(ours))).toEqual(JSON.parse(JSON.stringify(await loadSpec())));
  });

  it('leaves the document given as it is, unless asked to resolve it in place', () => {
    const text = readFileSync(join(specPath, '..', 'openapi.json'), 'utf8');
    const given = JSON.parse(text) as object;
    const copied = dereferenceDocument(given);
    expect(copied).not.toBe(given);
    expect(given).toEqual(JSON.parse(text));
    const resolved = dereferenceDocument(given, { inPlace: true });
    expect(resolved).toBe(given);
    expect(JSON.stringify(resolved)).not.toContain('"$ref"');
    expect(JSON.parse(JSON.stringify(resolved))).toEqual(JSON.parse(JSON.stringify(copied)));
  });

  it('resolves escaped pointers (~1 for /, ~0 for ~) and shares the objects of a cycle', () => {
    const doc = dereferenceDocument({
      paths: { '/users': { get: { operationId: 'list' } } },
      components: {
        schemas: {
          'a~b': { type: 'string' },
          Node: { properties: { next: { $ref: '#/components/schemas/Node' } } },
        },
      },
      refs: [{ $ref: '#/paths/~1users/get' }, { $ref: '#/components/schemas/a~0b' }, null],
    }) as unknown as {
      refs: unknown[];
      components: { schemas: { Node: { properties: { next: unknown } } } };
    };
    expect(doc.refs).toEqual([{ operationId: 'list' }, { type: 'string' }, null]);
    const node = doc.components.schemas.Node;
    expect(node.properties.next).toBe(node);
  });

  it('refuses references it cannot resolve', () => {
    expect(() =>
      dereferenceDocument({ components: { schemas: { A: { $ref: '#/components/schemas/B' } } } }),
    ).toThrow(/unresolved reference #\/components\/schemas\/B/);
  });
});
