import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { sourceMapResolver, summarise } from './cpu-profile-summary.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A profile of two samples in one function of `url`, at line 0, column `column`. */
function profileAt(url: string, column: number) {
  return {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 } },
      { id: 2, callFrame: { functionName: 'send', url, lineNumber: 0, columnNumber: column } },
    ],
    samples: [2, 2],
    timeDeltas: [1000, 1000],
  };
}

describe('cpu-profile-summary', () => {
  it('puts bundled code under the package its source map names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apikit-prof-'));
    dirs.push(dir);
    const bundle = join(dir, 'dist', 'cli.js');
    await mkdir(join(dir, 'dist'));
    await writeFile(bundle, 'function send(){}\n//# sourceMappingURL=cli.js.map\n');
    // One segment: generated line 0, column 0 -> source 0, line 4 (0-based 3), column 0.
    await writeFile(
      `${bundle}.map`,
      JSON.stringify({
        version: 3,
        sources: ['../node_modules/express/lib/response.js'],
        names: [],
        mappings: 'AAGA',
      }),
    );
    const { packages, functions } = summarise(
      profileAt(pathToFileURL(bundle).href, 0),
      sourceMapResolver(),
    );
    expect(packages).toEqual([{ name: 'express', ms: 2 }]);
    expect(functions[0]).toMatchObject({ name: 'send', where: 'express/lib/response.js:4' });
  });

  it('leaves frames without a source map as they are', () => {
    const { packages, functions } = summarise(
      profileAt('file:///nowhere/node_modules/router/index.js', 3),
      sourceMapResolver(),
    );
    expect(packages).toEqual([{ name: 'router', ms: 2 }]);
    expect(functions[0]).toMatchObject({ where: 'router/index.js:1' });
  });
});
