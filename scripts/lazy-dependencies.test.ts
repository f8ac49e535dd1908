import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../spec/spec-path.js';
import { bundleProbe } from './bundle-probe.js';
import { LAZY, lazyExpressDependencies } from './lazy-dependencies.mjs';

// An Express app bundled the way scripts/build-cli.mjs bundles the CLI (iconv-lite and mime-db
// left to Node's loader, as there), run in its own process: it reports which of those two
// packages Node has loaded before and after each feature behind a stand-in is first used.
const app = `
import express from 'express';
const loaded = (name) => Object.keys(require.cache).some((file) => file.includes('/node_modules/' + name + '/'));
const seen = { atStart: { iconv: loaded('iconv-lite'), mimeDb: loaded('mime-db') } };
const server = express()
  .set('query parser', 'extended')
  .post('/echo', express.json(), (req, res) => res.type('json').send(JSON.stringify({ body: req.body, query: req.query })))
  .listen(0, '127.0.0.1', async () => {
    const { port } = server.address();
    const answer = await fetch('http://127.0.0.1:' + port + '/echo?filter[name]=ada', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ n: 1 }),
    });
    seen.answer = { status: answer.status, type: answer.headers.get('content-type'), body: await answer.json() };
    seen.afterUse = { iconv: loaded('iconv-lite'), mimeDb: loaded('mime-db') };
    server.close();
    console.log(JSON.stringify(seen));
  });
`;

let bundle: string;

beforeAll(async () => {
  bundle = await bundleProbe({
    source: app,
    external: ['iconv-lite', 'mime-db'],
    plugins: [lazyExpressDependencies(packageRoot)],
    banner:
      "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);",
  });
  // Beside the package, so that Node finds the external packages in its node_modules.
  writeFileSync(join(packageRoot, 'dist', 'lazy-dependencies-probe.mjs'), bundle);
});

afterAll(() => {
  rmSync(join(packageRoot, 'dist', 'lazy-dependencies-probe.mjs'), { force: true });
});

describe("the bundle's lazy Express dependencies (decision 0037)", () => {
  it('puts a stand-in in place of each package it names, named without the machine path', () => {
    for (const name of Object.keys(LAZY)) expect(bundle).toContain(`lazy:node_modules/${name}/`);
    expect(bundle).not.toContain(`lazy:${packageRoot}`);
  });

  it('loads them on first use, and express.json(), the extended query parser and res.type work then', () => {
    const run = spawnSync(
      process.execPath,
      [join(packageRoot, 'dist', 'lazy-dependencies-probe.mjs')],
      {
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(run.stderr).toBe('');
    const seen = JSON.parse(run.stdout) as {
      atStart: { iconv: boolean; mimeDb: boolean };
      afterUse: { iconv: boolean; mimeDb: boolean };
      answer: { status: number; type: string; body: unknown };
    };
    expect(seen.atStart).toEqual({ iconv: false, mimeDb: false });
    expect(seen.answer).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: { body: { n: 1 }, query: { filter: { name: 'ada' } } },
    });
    expect(seen.afterUse).toEqual({ iconv: true, mimeDb: true });
  });
});
