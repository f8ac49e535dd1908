/**
 * `npm run bench`: every subject on loopback, driven by autocannon from a separate process,
 * each figure a ratio against a baseline measured in the same run (A/B interleaved, min /
 * median / max over the runs), judged against the targets of issue 6. Prints the tables,
 * writes bench/results.json, bench/results.md and bench/write-cost.svg.
 *
 *   npm run bench                  full run (3 runs; several minutes)
 *   npm run bench -- --quick       under a minute; exits 1 when a figure is worse than half its target
 *   npm run bench -- --only get,write --runs 5 --cpu-prof
 *
 * The phases are read-phase.ts, write-phase.ts, cold-phase.ts, conform-phase.ts, msw-phase.ts
 * and postgres/postgres-phase.ts, filling one BenchRun (bench-run.ts); judged-targets.ts,
 * info-rows.ts and measurement-rows.ts turn it into the report that report.ts renders.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { log } from './bench-log.js';
import { BenchRun } from './bench-run.js';
import { parseSettings, reportedSettings, type Settings } from './bench-settings.js';
import { coldPhase } from './cold-phase.js';
import { conformPhase } from './conform-phase.js';
import { infoRows } from './info-rows.js';
import { judgedTargets } from './judged-targets.js';
import { gitRevision, machineInfo } from './machine-info.js';
import { measurementRows, runWriteCostSvg } from './measurement-rows.js';
import { mswPhase } from './msw-phase.js';
import { postgresPhase } from './postgres/postgres-phase.js';
import { readPhase } from './read-phase.js';
import { renderConsole, renderHeader, renderMarkdown, type BenchResults } from './report.js';
import { REPO_ROOT } from './repo-root.js';
import { killAllNow } from './start-process.js';
import { writePhase } from './write-phase.js';

async function main(): Promise<number> {
  const settings = parseSettings(process.argv.slice(2));
  const startedAt = new Date();
  const loadStart = os.loadavg()[0] ?? 0;
  const tmp = await mkdtemp(join(os.tmpdir(), 'apikit-bench-'));
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping every subject`);
    killAllNow();
    rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  if (settings.cpuProfileDir) await mkdir(settings.cpuProfileDir, { recursive: true });
  logStart(settings);
  const revision = gitRevision();
  const run = new BenchRun(settings, tmp);
  try {
    await runPhases(run);
  } finally {
    await run.stopAll();
    await rm(tmp, { recursive: true, force: true });
  }
  const results: BenchResults = {
    mode: settings.mode,
    startedAt: startedAt.toISOString(),
    revision,
    durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
    machine: machineInfo(loadStart),
    settings: reportedSettings(settings),
    targets: judgedTargets(run),
    info: infoRows(run),
    measurements: measurementRows(run),
    errors: run.errors,
  };
  const svg = await writeResults(results, runWriteCostSvg(run));
  return printSummary(results, loadStart, svg);
}

function logStart(settings: Settings): void {
  const moreWriteRuns = Object.entries(settings.groups.has('write') ? settings.writeRunsBySize : {})
    .map(([users, runs]) => `, ${runs} for POST at ${Number(users).toLocaleString('en-US')} users`)
    .join('');
  log(
    `apikit bench (${settings.mode}): ${settings.runs} run(s)${moreWriteRuns}, ${settings.connections} connections, ` +
      `${settings.durationSeconds} s per read measurement; groups ${[...settings.groups].join(', ')}`,
  );
}

/** The selected groups' phases, in order, each with its time on stderr. */
async function runPhases(run: BenchRun): Promise<void> {
  const { groups } = run.settings;
  const phase = async (name: string, measure: (run: BenchRun) => Promise<void>) => {
    const started = performance.now();
    await measure(run);
    log(`-- ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  await phase('stores', (r) => r.prepareStores());
  if (groups.has('get') || groups.has('mock')) await phase('reads', readPhase);
  if (groups.has('write')) await phase('writes', writePhase);
  if (groups.has('cold')) await phase('cold starts', coldPhase);
  if (groups.has('conform')) await phase('conform', conformPhase);
  if (groups.has('msw')) await phase('msw in-process', mswPhase);
  if (groups.has('postgres')) await phase('postgres', postgresPhase);
}

/** bench/results.json, bench/results.md and, when there are POST figures, bench/write-cost.svg. */
async function writeResults(results: BenchResults, svg: string | undefined): Promise<boolean> {
  const outDir = join(REPO_ROOT, 'bench');
  await writeFile(join(outDir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  await writeFile(join(outDir, 'results.md'), renderMarkdown(results));
  if (svg) await writeFile(join(outDir, 'write-cost.svg'), svg);
  return Boolean(svg);
}

/** The tables, the errors and the verdict on stdout; exit 1 when quick and a guard failed. */
function printSummary(results: BenchResults, loadStart: number, svg: boolean): number {
  process.stdout.write('\n' + renderHeader(results) + '\n\n' + renderConsole(results));
  if (results.errors.length > 0) {
    process.stdout.write(`Errors (${results.errors.length}):\n`);
    for (const error of results.errors) process.stdout.write(`  - ${error}\n`);
  }
  const met = results.targets.filter((t) => t.verdict === 'met').length;
  const missed = results.targets.filter((t) => t.verdict === 'missed').length;
  const failedGuards = results.targets.filter((t) => t.guard === 'failed');
  process.stdout.write(
    `\n${met} targets met, ${missed} missed, ${results.targets.length - met - missed} not measured ` +
      `(${results.durationSeconds} s; machine load ${loadStart.toFixed(2)} -> ${results.machine.loadAverageEnd.toFixed(2)}). ` +
      `Wrote bench/results.json, bench/results.md${svg ? ', bench/write-cost.svg' : ''}.\n`,
  );
  if (results.mode === 'quick') {
    if (failedGuards.length > 0) {
      process.stdout.write(
        `Quick bench FAILED: worse than half the target: ${failedGuards.map((t) => t.id).join(', ')}\n`,
      );
      return 1;
    }
    process.stdout.write('Quick bench passed: every figure within half its target.\n');
  }
  return 0;
}

process.once('exit', killAllNow);
main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    killAllNow();
    process.stderr.write(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
