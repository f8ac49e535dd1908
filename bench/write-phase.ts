/** The write phase: POST /users with durable acknowledgement, apikit serve vs json-server. */
import { fmt, log } from './bench-log.js';
import type { BenchRun } from './bench-run.js';
import { runLoad, type LoadResult } from './load.js';
import { SUBJECT_NAMES, WRITE_BODY, type WriteKey } from './scenarios.js';
import { startJsonServer017, startJsonServerBeta } from './subjects/json-server-subjects.js';
import { startReferenceServer } from './subjects/reference-server-subject.js';
import type { Subject } from './subjects/subject.js';
import { warmWrites } from './warm-writes.js';

/** POST /users with durable acknowledgement on fresh stores of each size, vs json-server. */
export async function writePhase(run: BenchRun): Promise<void> {
  const { settings } = run;
  const runsAt = (users: number) => settings.writeRunsBySize[users] ?? settings.runs;
  const most = Math.max(...settings.writeSizes.map(runsAt));
  for (let i = 0; i < most; i++) {
    for (const users of settings.writeSizes) {
      if (i >= runsAt(users)) continue;
      const keys: WriteKey[] = ['ref'];
      if (users <= 10_000 || settings.allPeers) keys.push('js017');
      if (settings.allPeers) keys.push('jsbeta');
      if (i % 2 === 1) keys.reverse();
      for (const key of keys) {
        const result = await measureWrite(run, key, users);
        const id = `${key}@${users}`;
        const list = run.writeRuns.get(id) ?? [];
        list.push(result);
        run.writeRuns.set(id, list);
        log(
          `[run ${i + 1}/${runsAt(users)}] POST /users at ${users.toLocaleString('en-US')} users: ` +
            `${SUBJECT_NAMES[key]} ${fmt(result?.okPerSecond)} writes/s, p99 ${fmt(result?.latencyMs.p99)} ms` +
            `${result && result.non2xx + result.errors > 0 ? ` (${result.non2xx} non-2xx, ${result.errors} errors)` : ''}`,
        );
      }
    }
  }
}

async function startWriteSubject(run: BenchRun, key: WriteKey, users: number): Promise<Subject> {
  const file = await run.freshCopy(users, key === 'ref' ? 'ref' : 'json');
  return key === 'ref'
    ? await startReferenceServer({ dbFile: file, ...run.profileOption() })
    : key === 'js017'
      ? await startJsonServer017(file)
      : await startJsonServerBeta(file);
}

async function measureWrite(
  run: BenchRun,
  key: WriteKey,
  users: number,
): Promise<LoadResult | undefined> {
  const { settings } = run;
  let subject: Subject | undefined;
  try {
    subject = await startWriteSubject(run, key, users);
    const afterStart = subject.process.memory();
    const amount = settings.writeAmounts[users] ?? 500;
    const createUrl = subject.url + (key === 'ref' ? '/api/v1/users' : '/users');
    // Warm, at the store's own size: records created and deleted again (decision 0038).
    // Not at 100k, where a flush takes long enough that JIT warmth is not what counts.
    const warm = users < 100_000;
    if (warm) {
      const warmup = await warmWrites({
        createUrl,
        headers: subject.headers,
        body: WRITE_BODY,
        connections: settings.connections,
        pairs: settings.writeWarmPairs,
        maxSeconds: settings.warmupSeconds,
      });
      log(
        `write warmup at ${users.toLocaleString('en-US')} users (${key}): ${warmup.pairs} create/delete pairs in ${warmup.seconds.toFixed(1)} s`,
      );
    }
    const result = await runLoad({
      url: createUrl,
      method: 'POST',
      headers: { ...subject.headers, 'Content-Type': 'application/json' },
      body: WRITE_BODY,
      connections: settings.connections,
      amount,
      // No warmup at 100k: a flush there takes seconds, and a warmup cut off by its time
      // limit would leave its writes queued in front of the measured ones.
      ...(warm ? { warmupAmount: Math.min(100, Math.ceil(amount / 10)) } : {}),
      maxSeconds: settings.writeMaxSeconds,
    });
    if (key === 'ref' && users === 100_000) {
      const after = subject.process.memory();
      if (after)
        run.memory100k.push({
          ...(afterStart ? { afterStartMb: afterStart.rssMb } : {}),
          rssMb: after.rssMb,
          peakMb: after.peakRssMb,
        });
    }
    const list = run.loads.get(`${key}@${users}`) ?? [];
    list.push(result);
    run.loads.set(`${key}@${users}`, list);
    return result;
  } catch (error) {
    run.fail(`${SUBJECT_NAMES[key]} POST /users at ${users} users`, error);
    return undefined;
  } finally {
    await subject?.stop();
  }
}
