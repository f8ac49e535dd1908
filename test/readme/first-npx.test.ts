// Issue 31, item 2: the README's `npx apikit ...` answers at once in a fresh clone. npx installs
// the checkout into its cache to link its bin, and that install runs the checkout's prepare
// script: it must not compile dist/ again (21-23 s on an empty npm cache before the fix).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { packageRoot } from '../../spec/spec-path.js';

it('the first npx apikit on an empty npm cache runs the checkout’s own build, not a new one', () => {
  const cache = mkdtempSync(join(tmpdir(), 'apikit-npm-cache-'));
  const cli = join(packageRoot, 'dist/cli/cli.js');
  const before = statSync(cli).mtimeMs;
  try {
    const started = Date.now();
    const result = spawnSync('npx', ['apikit', '--version'], {
      cwd: packageRoot,
      env: { ...process.env, npm_config_cache: cache },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(result.stdout + result.stderr).not.toContain('tsc -p tsconfig.build.json');
    // dist/ was not written again.
    expect(statSync(cli).mtimeMs).toBe(before);
    console.log(`first npx apikit --version on an empty npm cache: ${Date.now() - started} ms`);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}, 150_000);
