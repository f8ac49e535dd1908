import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generate } from './sustained/generate-load.js';
import {
  PATCH_POOL,
  type GeneratorConfig,
  type GeneratorResult,
} from './sustained/sustained-rules.js';
import { formatJson, sustainedReport, type SustainedRun } from './sustained/sustained-report.js';
import {
  createUser,
  loginToken,
  readDataset,
  repoRoot,
  rssOf,
  startServer,
} from './sustained/sustained-server.js';

/*
 * Sustained load (a benchmark, not a test): `apikit serve` on a JSON file, a separate process
 * running autocannon with 100 connections of mixed traffic (reads, writes, logins) for 60 s.
 * Records p99 latency and the server's RSS in the first and last 10 s, answers by status per
 * kind of request, and checks that every acknowledged create is in the file. Exits 1 when a
 * rule (bench/sustained/sustained-rules.ts) is broken. `npm run bench:sustained -- --duration 60`.
 * This file is also the load generator's process (`--generator`: bench/sustained/generate-load.ts).
 */

if (process.argv.includes('--generator')) {
  process.once('message', (config: GeneratorConfig) => {
    generate(config).then(
      (result) => process.send?.(result, () => process.exit(0)),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
} else {
  main().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      console.error(error);
      process.exit(2);
    },
  );
}

async function main(): Promise<boolean> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '60' },
      connections: { type: 'string', default: '100' },
      out: { type: 'string', default: join(repoRoot, 'bench', 'sustained-load.json') },
    },
  });
  const durationS = Number(values.duration);
  const connections = Number(values.connections);
  if (!(durationS >= 4) || !(connections >= 1))
    throw new Error('--duration >= 4, --connections >= 1');
  const dir = await mkdtemp(join(tmpdir(), 'apikit-sustained-'));
  const dbFile = join(dir, 'db.json');
  const server = await startServer(dbFile);
  try {
    const run = await measure(server, dbFile, durationS, connections);
    const { report, summary, pass } = sustainedReport(run, values.out);
    await writeFile(values.out, await formatJson(values.out, report));
    console.log(summary);
    return pass;
  } finally {
    server.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

/** The pool of users to patch, the load with the server's RSS sampled, the stop, the file. */
async function measure(
  server: Awaited<ReturnType<typeof startServer>>,
  dbFile: string,
  durationS: number,
  connections: number,
): Promise<SustainedRun> {
  const api = `${server.url}/api/v1`;
  const token = await loginToken(api);
  const patchIds = [];
  for (let i = 0; i < PATCH_POOL; i += 1) {
    patchIds.push(await createUser(api, token, `pool-${i}@load.example.com`));
  }
  const userIds = Object.keys(readDataset(dbFile).users).map(Number);
  const usersAtStart = userIds.length;
  const fileAtStart = readFileSync(dbFile).length;
  const rss: { t: number; bytes: number }[] = [{ t: 0, bytes: rssOf(server.child) }];
  const loadStart = loadavg()[0] as number;
  const started = Date.now();
  const sampler = setInterval(
    () => rss.push({ t: (Date.now() - started) / 1000, bytes: rssOf(server.child) }),
    1000,
  );
  const result = await runGenerator({
    url: server.url,
    token,
    connections,
    durationS,
    readIds: userIds,
    patchIds,
  });
  clearInterval(sampler);
  const loadEnd = loadavg()[0] as number;

  server.child.kill('SIGTERM');
  const exitCode = await new Promise<number | null>((resolve) =>
    server.child.once('exit', resolve),
  );
  return {
    durationS,
    connections,
    window: Math.min(10, Math.floor(durationS / 2)),
    result,
    rss,
    loadStart,
    loadEnd,
    exitCode,
    usersAtStart,
    usersAtEnd: Object.values(readDataset(dbFile).users),
    fileAtStart,
    fileAtEnd: readFileSync(dbFile).length,
  };
}

/** The load generator in a process of its own (this file with `--generator`). */
function runGenerator(config: GeneratorConfig): Promise<GeneratorResult> {
  const child = fork(fileURLToPath(import.meta.url), ['--generator'], { stdio: 'inherit' });
  child.send(config);
  return new Promise((resolve, reject) => {
    child.once('message', (result) => resolve(result as GeneratorResult));
    child.once('exit', (code) => reject(new Error(`the load generator exited ${code}`)));
  });
}
