import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from './load-spec.js';
import { listOperations } from './operations.js';
import { packageRoot } from './spec-path.js';

const copy = join(packageRoot, 'docs', 'interface-document.md');
const seed = join(packageRoot, '..', 'shared', 'seed', '000_a37dc4fd543a8019.txt');

/** `| METHOD | /path | ...` rows of the document's endpoint tables. */
function documentedEndpoints(text: string): { method: string; path: string }[] {
  return [...text.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| (\/\S*) \|/gm)].map((m) => ({
    method: (m[1] as string).toLowerCase(),
    path: m[2] as string,
  }));
}

describe('the spec covers the interface document', () => {
  it('the committed copy of the interface document is the seed, unchanged', (ctx) => {
    if (!existsSync(seed)) return ctx.skip('shared/seed is not beside this checkout');
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(seed, 'utf8'));
  });

  it('every path and method of the interface document is an operation of the spec', async () => {
    const endpoints = documentedEndpoints(readFileSync(copy, 'utf8'));
    // The document's tables: 7 user rows, 7 order rows, 3 role rows, 1 login row.
    expect(endpoints).toHaveLength(18);
    const operations = listOperations(await loadSpec());
    const missing = endpoints.filter(
      (e) => !operations.some((op) => op.method === e.method && op.path === e.path),
    );
    expect(missing).toEqual([]);
  });

  it('declares the operations the contract page adds', async () => {
    const ids = new Set(listOperations(await loadSpec()).map((op) => op.operationId));
    for (const id of [
      'refreshToken',
      'logout',
      'listRoles',
      'listCategories',
      'getCategory',
      'blockUser',
      'unblockUser',
      'resetData',
      'replaceUserOrder',
      'updateUserOrder',
    ]) {
      expect(ids, id).toContain(id);
    }
  });
});
