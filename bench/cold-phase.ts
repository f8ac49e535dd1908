/** The cold-start phase: spawn to first 200, apikit serve paired with node:http, then Prism. */
import { log } from './bench-log.js';
import type { BenchRun } from './bench-run.js';
import { coldStart } from './cold-start.js';
import { helloCommand } from './subjects/hello-subject.js';
import { prismArgs } from './subjects/mock-subjects.js';
import { serveArgs } from './subjects/reference-server-subject.js';
import { PRODUCTION_ENV } from './subjects/subject.js';

/** Spawn to first 200: apikit serve on the demo store, with node:http's own start beside it. */
export async function coldPhase(run: BenchRun): Promise<void> {
  if (!run.hasStore(0)) return;
  const dbFile = await run.freshCopy(0, 'ref');
  for (let i = 0; i < run.settings.coldStarts; i++) {
    const order: ('ref' | 'node')[] = i % 2 === 0 ? ['node', 'ref'] : ['ref', 'node'];
    for (const key of order) {
      try {
        const ms = await coldStart((port) => ({
          name: key === 'ref' ? 'apikit serve (cold start)' : 'node:http hello (cold start)',
          command: process.execPath,
          args: key === 'ref' ? serveArgs(port, dbFile) : helloCommand('node', port),
          env: PRODUCTION_ENV,
          port,
          readyPath: key === 'ref' ? '/healthz' : '/',
          readyStatus: 200,
        }));
        run.coldMs[key].push(ms);
      } catch (error) {
        run.fail(`cold start of ${key === 'ref' ? 'apikit serve' : 'node:http'}`, error);
      }
    }
  }
  log(
    `cold start: apikit serve ${run.coldMs.ref.map((m) => Math.round(m)).join(', ')} ms; ` +
      `node:http ${run.coldMs.node.map((m) => Math.round(m)).join(', ')} ms`,
  );
  await prismColdStarts(run);
}

async function prismColdStarts(run: BenchRun): Promise<void> {
  for (let i = 0; i < run.settings.prismColdStarts; i++) {
    try {
      run.coldMs.prism.push(
        await coldStart((port) => ({
          name: 'prism mock (cold start)',
          command: process.execPath,
          args: prismArgs(port),
          env: PRODUCTION_ENV,
          port,
          readyPath: '/users/1',
          readyHeaders: { Authorization: 'Bearer bench' },
          readyStatus: 200,
        })),
      );
    } catch (error) {
      run.fail('cold start of prism mock', error);
    }
  }
  if (run.coldMs.prism.length > 0)
    log(`cold start: prism mock ${run.coldMs.prism.map((m) => Math.round(m)).join(', ')} ms`);
}
