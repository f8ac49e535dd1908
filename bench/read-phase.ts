/** The read phase: each pair's subject and baseline measured back to back, run by run. */
import { fmt, log } from './bench-log.js';
import type { BenchRun } from './bench-run.js';
import { runLoad, type LoadResult } from './load.js';
import { PAIRS, SUBJECT_NAMES, type Pair, type Scenario, type SubjectKey } from './scenarios.js';
import { ADMIN } from './subjects/reference-server-subject.js';
import { bearerHeaders } from './subjects/subject.js';

/** Reads against Express and node:http (and the json-server peers); the mock against Prism. */
export async function readPhase(run: BenchRun): Promise<void> {
  const { settings } = run;
  const pairs = PAIRS.filter((p) => settings.groups.has(p.group) && (!p.peer || settings.allPeers));
  await startSubjects(run, pairs);
  for (let i = 0; i < settings.runs; i++) {
    await refreshTokens(run);
    const shared = new Map<string, LoadResult | undefined>();
    // Each run starts with another pair, so no pair always follows the logins and the warmups.
    const rotated = [...pairs.slice(i % pairs.length), ...pairs.slice(0, i % pairs.length)];
    for (const pair of rotated) await measurePair(run, pair, i, shared);
  }
  for (const [key, subject] of run.subjects) {
    await subject.stop();
    run.subjects.delete(key);
  }
}

async function startSubjects(run: BenchRun, pairs: Pair[]): Promise<void> {
  const keys = new Set<SubjectKey>(pairs.flatMap((p) => [p.baseline.subject, p.subject.subject]));
  log(`starting ${[...keys].map((k) => SUBJECT_NAMES[k]).join(', ')}`);
  const started = await Promise.allSettled(
    [...keys].map(async (key) => [key, await run.startSubject(key)] as const),
  );
  started.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') {
      run.subjects.set(outcome.value[0], outcome.value[1]);
      log(`  ${outcome.value[1].name} ready in ${Math.round(outcome.value[1].process.startMs)} ms`);
    } else run.fail(`starting ${SUBJECT_NAMES[[...keys][i] as SubjectKey]}`, outcome.reason);
  });
}

/** One run of a pair: a shared baseline (quick), or both in an order alternating run by run. */
async function measurePair(
  run: BenchRun,
  pair: Pair,
  index: number,
  shared: Map<string, LoadResult | undefined>,
): Promise<void> {
  let baseline: LoadResult | undefined;
  let subject: LoadResult | undefined;
  if (run.settings.sharedBaselines) {
    if (!shared.has(pair.baseline.id))
      shared.set(pair.baseline.id, await measureScenario(run, pair.baseline));
    baseline = shared.get(pair.baseline.id);
    subject = await measureScenario(run, pair.subject);
  } else if (index % 2 === 0) {
    baseline = await measureScenario(run, pair.baseline);
    subject = await measureScenario(run, pair.subject);
  } else {
    subject = await measureScenario(run, pair.subject);
    baseline = await measureScenario(run, pair.baseline);
  }
  const runs = run.pairRuns.get(pair.id) ?? [];
  runs.push({ ...(baseline ? { baseline } : {}), ...(subject ? { subject } : {}) });
  run.pairRuns.set(pair.id, runs);
  log(
    `[run ${index + 1}/${run.settings.runs}] ${pair.subject.request} ${SUBJECT_NAMES[pair.subject.subject]} ` +
      `${fmt(subject?.okPerSecond)}/s p99 ${fmt(subject?.latencyMs.p99)} ms vs ${SUBJECT_NAMES[pair.baseline.subject]} ` +
      `${fmt(baseline?.okPerSecond)}/s p99 ${fmt(baseline?.latencyMs.p99)} ms` +
      `${subject && subject.non2xx + subject.errors > 0 ? ` (subject: ${subject.non2xx} non-2xx, ${subject.errors} errors ${JSON.stringify(subject.statusCodes)})` : ''}`,
  );
}

/**
 * One measurement of `scenario`; the first one of each scenario starts with a discarded warmup
 * (JIT, caches) in the same load process.
 */
async function measureScenario(run: BenchRun, scenario: Scenario): Promise<LoadResult | undefined> {
  const subject = run.subjects.get(scenario.subject);
  if (!subject) return undefined;
  const warmup = run.warmed.has(scenario.id) ? 0 : run.settings.warmupSeconds;
  run.warmed.add(scenario.id);
  try {
    const result = await runLoad({
      url: subject.url + scenario.path,
      headers: subject.headers,
      connections: run.settings.connections,
      durationSeconds: run.settings.durationSeconds,
      maxSeconds: run.settings.durationSeconds + 10,
      ...(warmup > 0 ? { warmupSeconds: warmup } : {}),
    });
    const list = run.loads.get(scenario.id) ?? [];
    list.push(result);
    run.loads.set(scenario.id, list);
    return result;
  } catch (error) {
    run.fail(`${SUBJECT_NAMES[scenario.subject]} ${scenario.request}`, error);
    return undefined;
  }
}

/** Tokens live 15 minutes: a fresh login per run keeps a long bench from turning into 401s. */
async function refreshTokens(run: BenchRun): Promise<void> {
  for (const key of ['ref', 'mock'] as const) {
    const subject = run.subjects.get(key);
    if (!subject) continue;
    try {
      subject.headers = await bearerHeaders(
        `${subject.url}/api/v1`,
        ADMIN.username,
        ADMIN.password,
      );
    } catch (error) {
      run.fail(`logging in at ${subject.name}`, error);
    }
  }
}
