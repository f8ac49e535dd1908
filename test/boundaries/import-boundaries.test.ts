import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The rules of .dependency-cruiser.cjs run over a small planted tree: each file named `breaks-*`
// breaks exactly one rule, each file named `ok*` breaks none. `npm run check:boundaries` proves
// the real tree passes; this proves the rules would notice if it did not.

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const depcruise = join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

const plantedTree: Record<string, string> = {
  'core/ok.ts': 'export type Core = number;\n',
  'spec/ok.ts': 'export const spec = 1;\n',
  'mocks/ok.ts': "import type { Core } from '../core/ok.js';\nexport const mock: Core = 1;\n",
  'node-runtime/ok.ts':
    "import { createHash } from 'node:crypto';\nexport const hash = createHash;\n",
  'reference-server/ok.ts': "import '../node-runtime/ok.js';\nexport const server = 1;\n",
  'mocks/server/ok.ts': "import '../../node-runtime/ok.js';\nimport '../ok.js';\n",
  'conformance/ok.ts':
    "import '../spec/ok.js';\nimport { setTimeout } from 'node:timers/promises';\n",
  'core/ok.test.ts':
    "import 'node:fs';\nimport '../test/support.js';\nimport '../reference-server/ok.js';\n",
  'test/support.ts': "import '../mocks/ok.js';\n",
  'core/breaks-node.ts':
    "import type { Readable } from 'node:stream';\nexport type R = Readable;\n",
  'core/breaks-express.ts': "import type { Request } from 'express';\nexport type Q = Request;\n",
  'core/breaks-face.ts': "import '../mocks/ok.js';\n",
  'spec/breaks-root.ts': "import type { Core } from '../core/ok.js';\nexport type C = Core;\n",
  'conformance/breaks-black-box.ts': "import '../core/ok.js';\n",
  'mocks/breaks-node-runtime.ts': "import '../node-runtime/ok.js';\n",
  'mocks/breaks-server.ts': "import './server/ok.js';\n",
  'mocks/breaks-node.ts': "import { webcrypto } from 'node:crypto';\nexport const c = webcrypto;\n",
  'mocks/prism/breaks-face.ts': "import '../../reference-server/ok.js';\n",
  'node-runtime/breaks-face.ts': "import '../mocks/server/ok.js';\n",
  'reference-server/breaks-face.ts': "import '../mocks/ok.js';\n",
  'proxy/ok.ts':
    "import '../core/ok.js';\nimport '../node-runtime/ok.js';\nimport '../spec/ok.js';\n",
  'proxy/breaks-face.ts': "import '../mocks/ok.js';\n",
  'bench/breaks-test.ts': "import '../test/support.js';\n",
  'spec/breaks-resolve.ts': "import './missing.js';\n",
  'node_modules/express/package.json': '{ "name": "express", "main": "index.js" }\n',
  'node_modules/express/index.js': 'module.exports = {};\n',
  'tsconfig.json':
    '{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext" } }\n',
};

interface Violation {
  rule: { name: string };
  from: string;
}

let root: string;
let violations: string[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'apikit-boundaries-'));
  for (const [path, text] of Object.entries(plantedTree)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const config = join(repoRoot, '.dependency-cruiser.cjs');
  const args = [depcruise, '--config', config, '--output-type', 'json'];
  // depcruise exits with the number of errors; the JSON report is on stdout either way.
  const run = promisify(execFile)(process.execPath, [...args, '.'], { cwd: root });
  const { stdout } = await run.catch((error: { stdout: string }) => error);
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  violations = report.summary.violations.map((v) => `${v.rule.name}: ${v.from}`).sort();
}, 30_000);

afterAll(() => rm(root, { recursive: true, force: true }));

describe('.dependency-cruiser.cjs', () => {
  it('flags each planted break with its rule, and nothing else', () => {
    expect(violations).toEqual(
      [
        'core-no-node-builtins: core/breaks-node.ts',
        'core-no-express: core/breaks-express.ts',
        'core-knows-no-face: core/breaks-face.ts',
        'spec-is-the-root: spec/breaks-root.ts',
        'conformance-is-a-black-box: conformance/breaks-black-box.ts',
        'mocks-reuse-only-the-core: mocks/breaks-node-runtime.ts',
        'mocks-reuse-only-the-core: mocks/breaks-node.ts',
        'mocks-reuse-only-the-core: mocks/breaks-server.ts',
        'mock-servers-add-node-runtime: mocks/prism/breaks-face.ts',
        'node-runtime-is-shared-below-the-faces: node-runtime/breaks-face.ts',
        'reference-server-is-one-face: reference-server/breaks-face.ts',
        'proxy-is-one-face: proxy/breaks-face.ts',
        'no-product-imports-test: bench/breaks-test.ts',
        'imports-resolve: spec/breaks-resolve.ts',
      ].sort(),
    );
  });
});
