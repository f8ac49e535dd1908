/** The conform phase: `apikit conform`'s wall time, and the fuzz rate where fuzzing exists. */
import { join } from 'node:path';
import { log } from './bench-log.js';
import type { BenchRun } from './bench-run.js';
import { fuzzModeAvailable, timeConformRun, timeFuzzRun } from './conform-run.js';
import { startReferenceServer } from './subjects/reference-server-subject.js';
import type { Subject } from './subjects/subject.js';

/** Full default conform runs against a local server on the demo store; fuzz when it exists. */
export async function conformPhase(run: BenchRun): Promise<void> {
  let server: Subject | undefined;
  try {
    server = await startReferenceServer({ dbFile: await run.freshCopy(0, 'ref') });
    for (let i = 0; i < run.settings.conformRuns; i++) {
      const conform = await timeConformRun(
        `${server.url}/api/v1`,
        join(run.tmp, `conform-${i}.json`),
      );
      run.conformRuns.push(conform);
      log(
        `conform run ${i + 1}/${run.settings.conformRuns}: ${(conform.wallMs / 1000).toFixed(2)} s wall, ` +
          `${conform.requests ?? '?'} requests, ${conform.failed ?? '?'} failed (exit ${conform.exitCode})`,
      );
    }
    if (run.settings.fuzzCases === 0) {
      run.fuzzMissing = { kind: 'skipped', reason: 'not run in --quick (an absolute rate)' };
    } else if (await fuzzModeAvailable()) {
      await fuzzRuns(run, `${server.url}/api/v1`);
    } else {
      run.fuzzMissing = { kind: 'skipped', reason: 'not measured (fuzz mode not available)' };
    }
  } catch (error) {
    run.fail('conform run', error);
  } finally {
    await server?.stop();
  }
}

async function fuzzRuns(run: BenchRun, baseUrl: string): Promise<void> {
  for (let i = 0; i < run.settings.fuzzRuns; i++) {
    try {
      const fuzz = await timeFuzzRun(
        baseUrl,
        run.settings.fuzzCases,
        join(run.tmp, `fuzz-${i}.json`),
      );
      run.fuzzRuns.push(fuzz);
      log(
        `fuzz run ${i + 1}/${run.settings.fuzzRuns}: ${fuzz.fuzz?.requests ?? '?'} fuzz requests in ` +
          `${fuzz.fuzz?.durationMs ?? '?'} ms (${fuzz.requests ?? '?'} in ${fuzz.runnerMs ?? '?'} ms ` +
          `with logins and cleanup; exit ${fuzz.exitCode})`,
      );
    } catch (error) {
      run.fuzzMissing = { kind: 'error', reason: `fuzz run failed: ${String(error)}` };
    }
  }
}
