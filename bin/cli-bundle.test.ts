import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../spec/spec-path.js';

const bin = join(packageRoot, 'bin', 'apikit.js');
const version = (
  JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** The CLI as users run it (bin/apikit.js, the dist/cli/ bundle), from another folder. */
function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: tmpdir(),
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

// The bundle moves yargs' code away from its files: scripts/build-cli.mjs points it back
// (decision 0032). Without that, --version said "unknown" and translations were gone.
describe('the bundled CLI', () => {
  it("names apikit's version from any working directory", () => {
    const result = run(['--version']);
    expect(result.stdout.trim()).toBe(version);
    expect(result.status).toBe(0);
  });

  it("speaks the user's language through yargs' own locale files", () => {
    const result = run(['serve', '--help'], { LC_ALL: 'de_DE.UTF-8', LANG: 'de_DE.UTF-8' });
    expect(result.stdout).toMatch(/^Optionen:$/m);
    expect(result.stdout).toMatch(/Hilfe anzeigen/);
    expect(result.status).toBe(0);
  });

  it('aligns the help it prints in columns', () => {
    const lines = run(['serve', '--help']).stdout.split('\n');
    const port = lines.find((line) => line.includes('--port'));
    const host = lines.find((line) => line.includes('--host'));
    expect(port?.indexOf('port (0 picks')).toBe(host?.indexOf('address to bind'));
  });
});
