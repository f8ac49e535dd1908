import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/spec-path.js';
import { deployBlocks } from './deploy-blocks.js';

/*
 * docs/deploy.md's systemd unit and Dockerfile, checked without systemd running and without
 * Docker: the unit passes `systemd-analyze verify` (its binary pointed at this checkout; a
 * structural check where systemd-analyze is missing), and the image's CMD is the package's
 * `apikit` binary, starts a server with the Dockerfile's flags, and its HEALTHCHECK command
 * passes against that server's /readyz (decision 0111). Needs `npm run build`.
 */

const doc = deployBlocks(await readFile(join(packageRoot, 'docs', 'deploy.md'), 'utf8'));
const unit = doc.get('apikit@.service') ?? '';
const dockerfile = doc.get('Dockerfile') ?? '';
const pkg = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-units-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The `[Section]` → `Key=value` entries of a unit file (comments and blank lines left out). */
function unitEntries(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const section = /^\[(\w+)\]$/.exec(line);
    if (section?.[1]) sections.set(section[1], (current = new Map()));
    else {
      const entry = /^(\w+)=(.*)$/.exec(line);
      if (!entry?.[1] || !current) throw new Error(`not a unit line: ${line}`);
      current.set(entry[1], entry[2] ?? '');
    }
  }
  return sections;
}

/** A Dockerfile instruction's exec form (`CMD ["a", "b"]`), continuation lines joined. */
function execForm(instruction: string): string[] {
  const joined = dockerfile.replace(/\\\n\s*/g, '');
  const line = joined.split('\n').find((l) => l.startsWith(`${instruction} `)) ?? '';
  const json = line.slice(line.indexOf('['));
  return JSON.parse(json) as string[];
}

describe('docs/deploy.md: the systemd unit', () => {
  const entries = unitEntries(unit);

  it('runs the apikit binary on the instance port, stops by SIGTERM with room for the drain', () => {
    const service = entries.get('Service');
    expect(service?.get('ExecStart')).toMatch(
      /^\/opt\/apikit\/node_modules\/\.bin\/apikit serve .*--port %i/,
    );
    expect(service?.get('KillSignal')).toBe('SIGTERM');
    // The drain delay (5 s) plus the drain (10 s at most), with room.
    expect(Number(service?.get('TimeoutStopSec'))).toBeGreaterThanOrEqual(15);
    expect(service?.get('User')).not.toBe('root');
    expect(entries.get('Install')?.get('WantedBy')).toBe('multi-user.target');
  });

  it('passes systemd-analyze verify', async (context) => {
    const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
    if (analyze.status !== 0) return context.skip('systemd-analyze is not installed');
    // The binary at this checkout's bin (verify checks it is executable), nothing else changed.
    const placed = unit.replace(
      '/opt/apikit/node_modules/.bin/apikit',
      join(packageRoot, pkg.bin.apikit ?? ''),
    );
    const file = join(dir, 'apikit@.service');
    await writeFile(file, placed);
    const verified = spawnSync('systemd-analyze', ['verify', join(dir, 'apikit@3001.service')], {
      encoding: 'utf8',
    });
    const aboutUnit = verified.stderr
      .split('\n')
      .filter((line) => line.includes('apikit@'))
      .join('\n');
    expect(aboutUnit).toBe('');
    expect(verified.status).toBe(0);
  });
});

describe('docs/deploy.md: the Dockerfile', () => {
  it('builds in one stage and runs unprivileged from a second', () => {
    const froms = dockerfile.split('\n').filter((l) => l.startsWith('FROM '));
    expect(froms).toHaveLength(2);
    expect(froms[0]).toMatch(/ AS build$/);
    expect(dockerfile).toMatch(/^COPY --from=build /m);
    const afterSecond = dockerfile.slice(dockerfile.indexOf(froms[1] ?? ''));
    expect(afterSecond).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/npm install .*user-order-apikit/);
  });

  it("CMD starts the package's apikit binary, and the HEALTHCHECK passes on /readyz", async () => {
    const cmd = execForm('CMD');
    expect(cmd[0]).toBe('node_modules/.bin/apikit');
    const bin = pkg.bin.apikit ?? '';
    expect(bin).not.toBe('');
    const check = execForm('HEALTHCHECK');
    expect(check.slice(0, 2)).toEqual(['node', '-e']);
    expect(check[2]).toContain('/readyz');
    // The CMD's flags, on a free port of loopback and in memory (no database here).
    const args = cmd
      .slice(1)
      .map((arg, i, all) =>
        all[i - 1] === '--port' ? '0' : all[i - 1] === '--host' ? '127.0.0.1' : arg,
      );
    const child = spawn(process.execPath, [join(packageRoot, bin), ...args, '--memory'], {
      cwd: packageRoot,
      env: {
        ...process.env,
        APIKIT_ADMIN_PASSWORD: 'units-admin-password',
        APIKIT_USER_PASSWORD: 'units-user-password',
        APIKIT_JWT_SECRET: 'units-test-secret-at-least-32-bytes-long-0123',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const port = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no address: ${out}`)), 20_000);
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const found = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
          if (found?.[1]) {
            clearTimeout(timer);
            resolve(found[1]);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const script = (check[2] ?? '').replace('127.0.0.1:3000', `127.0.0.1:${port}`);
      const health = spawnSync(process.execPath, ['-e', script], { timeout: 10_000 });
      expect(health.status).toBe(0);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
  });
});
