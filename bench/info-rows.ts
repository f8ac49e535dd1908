/** The figures a bench run reports beside the targets, unjudged: peers, sizes, absolute costs. */
import type { BenchRun } from './bench-run.js';
import type { ConformRun } from './conform-run.js';
import type { LoadResult } from './load.js';
import { postgresInfo } from './postgres/pg-report.js';
import type { InfoRow } from './report.js';
import { SUBJECT_NAMES } from './scenarios.js';
import { pairedRatios, spread } from './stats.js';

type Add = (id: string, title: string, unit: string, values: number[], note?: string) => void;

const ok = (r: LoadResult) => r.okPerSecond;

export function infoRows(run: BenchRun): InfoRow[] {
  const rows: InfoRow[] = [];
  const add: Add = (id, title, unit, values, note) => {
    const value = spread(values);
    if (value) rows.push({ id, title, unit, value, ...(note ? { note } : {}) });
  };
  readInfo(run, add);
  writeInfo(run, add);
  coldAndConformInfo(run, add);
  mswInfo(run, add);
  postgresInfo(run, add);
  return rows;
}

function readInfo(run: BenchRun, add: Add): void {
  add(
    'express-hello',
    'Express 5 hello throughput (the baseline)',
    '2xx/s',
    (run.loads.get('express-hello') ?? []).map(ok),
  );
  add(
    'node-vs-express',
    'node:http hello ÷ Express 5 hello (framework cost)',
    'x',
    run.ratios('node-vs-express', ok),
  );
  add(
    'js017-get',
    'json-server 0.17 GET /users/1 ÷ Express 5 hello',
    'x',
    run.ratios('js017-get', ok),
  );
  add(
    'jsbeta-get',
    'json-server 1.0-beta GET /users/1 ÷ Express 5 hello',
    'x',
    run.ratios('jsbeta-get', ok),
  );
  add(
    'prism-get',
    'prism mock GET /users/1 throughput',
    '2xx/s',
    (run.loads.get('prism-get-user') ?? []).map(ok),
  );
}

function writeInfo(run: BenchRun, add: Add): void {
  for (const users of run.settings.writeSizes) {
    for (const key of ['ref', 'js017', 'jsbeta'] as const) {
      const values = run.writes(key, users).filter((v): v is number => v !== undefined);
      add(
        `write-${key}-${users}`,
        `POST /users at ${users.toLocaleString('en-US')} users: ${SUBJECT_NAMES[key]}`,
        'writes/s',
        values,
      );
    }
    add(
      `write-ref-vs-beta-${users}`,
      `POST /users at ${users.toLocaleString('en-US')} users: apikit serve ÷ json-server 1.0-beta`,
      'x',
      pairedRatios(run.writes('ref', users), run.writes('jsbeta', users)),
    );
  }
  add(
    'rss-100k-start',
    'RSS of apikit serve at 100,000 users, after start',
    'MB',
    run.memory100k.flatMap((m) => (m.afterStartMb === undefined ? [] : [m.afterStartMb])),
  );
  add(
    'rss-100k-after',
    'RSS of apikit serve at 100,000 users, after the write bench',
    'MB',
    run.memory100k.map((m) => m.rssMb),
  );
}

function coldAndConformInfo(run: BenchRun, add: Add): void {
  add('cold-node', 'Cold start of node:http hello (spawn to first 200)', 'ms', run.coldMs.node);
  add(
    'cold-vs-node',
    'Cold start of apikit serve ÷ cold start of node:http hello (paired)',
    'x',
    pairedRatios(run.coldMs.ref, run.coldMs.node),
  );
  add('cold-prism', 'Cold start of prism mock (spawn to first 200)', 'ms', run.coldMs.prism);
  add(
    'conform-requests',
    'conform run: requests',
    'requests',
    run.conformRuns.flatMap((r) => (r.requests === undefined ? [] : [r.requests])),
  );
  add(
    'conform-rate',
    'conform run: requests per second of runner time',
    'req/s',
    run.conformRuns.flatMap(runnerRate),
  );
  add(
    'fuzz-run-rate',
    'fuzz run: all requests ÷ runner duration (logins, fixtures and cleanup included)',
    'req/s',
    run.fuzzRuns.flatMap(runnerRate),
  );
}

function mswInfo(run: BenchRun, add: Add): void {
  if (!run.msw) return;
  const m = run.msw;
  add(
    'msw-us-sequential',
    'MSW handlers in-process, GET /users/{id}, one at a time (latency)',
    'µs/request',
    [m.usSequential],
  );
  add(
    'msw-us-concurrent',
    'MSW handlers in-process, GET /users/{id}, 50 in flight (amortised cost)',
    'µs/request',
    [m.usConcurrent],
  );
  add(
    'msw-us-novalidation',
    'MSW handlers in-process, 50 in flight, response validation off',
    'µs/request',
    [m.usConcurrentWithoutValidation],
  );
}

/** A conform run's requests per second of the runner's own duration ([] when unknown). */
function runnerRate(run: ConformRun): number[] {
  return run.requests && run.runnerMs ? [(run.requests / run.runnerMs) * 1000] : [];
}
