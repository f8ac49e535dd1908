import type { RecordedTest } from '../spec/interactions/interaction-file.js';
import { relativeToCwd } from './node-process.js';

/** What Vitest keeps of the running test on `globalThis.__vitest_worker__` (Vitest 1 to 4). */
interface VitestWorkerState {
  filepath?: string;
  current?: VitestTask;
}

interface VitestTask {
  type?: string;
  name: string;
  fullTestName?: string;
  suite?: VitestTask;
  file?: { filepath?: string };
}

/** What `expect.getState()` tells under Jest (and Vitest with globals). */
interface ExpectState {
  currentTestName?: string;
  testPath?: string;
}

/** "describe > it" of a Vitest test, from its suites where the runner has no fullTestName. */
function vitestName(task: VitestTask): string {
  if (task.fullTestName) return task.fullTestName;
  const names: string[] = [];
  // Up to the file's own task (the one with a `filepath`), whose name is the file's.
  for (let at: VitestTask | undefined = task; at && !('filepath' in at); at = at.suite)
    if (at.name) names.unshift(at.name);
  return names.join(' > ');
}

/**
 * The test that is running, as far as the test runner says: Vitest (its worker state, with or
 * without globals), Jest (`expect.getState()`), else undefined. The file is relative to the
 * working directory; the name is the runner's full name ("describe > it" under Vitest,
 * "describe it" under Jest), left out where no test is running (a `beforeAll`).
 */
export function currentTest(): RecordedTest | undefined {
  const scope = globalThis as {
    __vitest_worker__?: VitestWorkerState;
    expect?: { getState?: () => ExpectState };
  };
  const vitest = scope.__vitest_worker__;
  if (vitest) {
    const task = vitest.current;
    const file = task?.file?.filepath ?? vitest.filepath;
    if (!file) return undefined;
    const name = task && task.type === 'test' ? vitestName(task) : undefined;
    return { file: relativeToCwd(file), ...(name ? { name } : {}) };
  }
  let state: ExpectState | undefined;
  try {
    state = typeof scope.expect?.getState === 'function' ? scope.expect.getState() : undefined;
  } catch {
    state = undefined;
  }
  if (!state?.testPath) return undefined;
  const name = state.currentTestName;
  return { file: relativeToCwd(state.testPath), ...(name ? { name } : {}) };
}
