/** A bench run's figures judged against the targets of issue 6 (bench/targets.ts). */
import type { Group } from './bench-settings.js';
import type { BenchRun } from './bench-run.js';
import type { LoadResult } from './load.js';
import { postgresTargets } from './postgres/pg-report.js';
import { pairedRatios, spread } from './stats.js';
import { judge, TARGETS, type JudgedTarget, type Missing } from './targets.js';

const ok = (r: LoadResult) => r.okPerSecond;
const p99 = (r: LoadResult) => r.latencyMs.p99;

export function judgedTargets(run: BenchRun): JudgedTarget[] {
  const pairTarget = (
    target: (typeof TARGETS)[keyof typeof TARGETS],
    pairId: string,
    group: Group,
    figure = ok,
  ) =>
    judge(
      target,
      spread(run.ratios(pairId, figure)),
      run.missing(group, pairId),
      run.subjectTrouble(pairId),
    );
  const [post1k, post100k, memory100k] = writeTargets(run);
  return [
    pairTarget(TARGETS.getUserThroughput, 'get-user', 'get'),
    pairTarget(TARGETS.getUserP99, 'get-user', 'get', p99),
    pairTarget(TARGETS.listUsers, 'list-users', 'get'),
    pairTarget(TARGETS.orderExpand, 'order-expand', 'get'),
    post1k,
    post100k,
    pairTarget(TARGETS.mockVsPrism, 'mock-vs-prism', 'mock'),
    judge(TARGETS.coldStart, spread(run.coldMs.ref), run.missing('cold', 'cold start')),
    ...conformTargets(run),
    memory100k,
    ...postgresTargets(run),
  ];
}

/** POST at 1k users against json-server 0.17, POST at 100k users, memory at 100k users. */
function writeTargets(run: BenchRun): JudgedTarget[] {
  const writeTrouble = (users: number) => {
    const bad = (run.writeRuns.get(`ref@${users}`) ?? []).reduce(
      (s, r) => s + (r ? r.non2xx + r.errors : 0),
      0,
    );
    return bad > 0 ? `${bad} non-2xx/errors from apikit serve` : undefined;
  };
  const missing100k: Missing = run.settings.writeSizes.includes(100_000)
    ? run.missing('write', 'the 100k write measurement')
    : { kind: 'skipped', reason: 'not run' };
  return [
    judge(
      TARGETS.post1k,
      spread(pairedRatios(run.writes('ref', 1_000), run.writes('js017', 1_000))),
      run.missing('write', 'a write measurement'),
      writeTrouble(1_000),
    ),
    judge(
      TARGETS.post100k,
      spread(run.writes('ref', 100_000).filter((v): v is number => v !== undefined)),
      missing100k,
      writeTrouble(100_000),
    ),
    judge(TARGETS.memory100k, spread(run.memory100k.map((m) => m.peakMb)), missing100k),
  ];
}

/** The conform run's wall time and the fuzz rate, each with what went wrong said beside it. */
function conformTargets(run: BenchRun): JudgedTarget[] {
  const conformNote = run.conformRuns.some((r) => r.exitCode !== 0)
    ? `exit codes ${run.conformRuns.map((r) => r.exitCode).join(', ')}; failed checks ${run.conformRuns.map((r) => r.failed ?? '?').join(', ')}`
    : undefined;
  const fuzzRates = run.fuzzRuns.flatMap((r) =>
    r.fuzz ? [(r.fuzz.requests / r.fuzz.durationMs) * 1000] : [],
  );
  const fuzzMissing: Missing =
    run.fuzzMissing ??
    (run.fuzzRuns.length > 0
      ? { kind: 'error', reason: 'fuzz runs gave no fuzz summary' }
      : run.missing('conform', 'conform'));
  // A rate from runs that found something, or from fewer runs than asked, is said so.
  const fuzzNote =
    [
      run.fuzzRuns.some((r) => r.exitCode !== 0)
        ? `exit codes ${run.fuzzRuns.map((r) => r.exitCode).join(', ')}`
        : '',
      fuzzRates.length > 0 && run.fuzzMissing ? run.fuzzMissing.reason : '',
    ]
      .filter(Boolean)
      .join('; ') || undefined;
  return [
    judge(
      TARGETS.conformWall,
      spread(run.conformRuns.map((r) => r.wallMs / 1000)),
      run.missing('conform', 'conform'),
      conformNote,
    ),
    judge(TARGETS.fuzzThroughput, spread(fuzzRates), fuzzMissing, fuzzNote),
  ];
}
