/**
 * The PostgreSQL phase in the report (decision 0088): the targets of issue 22, judged on the
 * 1,000,000-user database with one instance (three instances beside, unjudged), the ratios
 * against Express hello and against the JSON file of the same run, and every load measurement.
 */
import type { BenchRun } from '../bench-run.js';
import type { LoadResult } from '../load-spec.js';
import type { InfoRow, MeasurementRow } from '../report.js';
import { pairedRatios, spread } from '../stats.js';
import { judge, type JudgedTarget, type Missing, type Target } from '../targets.js';
import {
  PG_SUBJECT_NAMES,
  pgLoadId,
  pgRequests,
  type PgRequestKey,
  type PgSubjectKey,
} from './pg-figures.js';

/** The size the targets of issue 22 are set at. */
const TARGET_USERS = 1_000_000;

/** Issue 22's targets (absolute: not guarded, and not in --quick). */
export const PG_TARGETS = {
  listFirstP99: {
    id: 'pg-list-first-p99-1m',
    title: 'PostgreSQL, 1,000,000 users, 1 instance: GET /users?page=0&size=20 p99',
    how: 'p99 of the 2xx answers, 50 connections, median over the runs',
    unit: 'ms',
    direction: 'below',
    guarded: false,
    threshold: 100,
  },
  listDeepP99: {
    id: 'pg-list-deep-p99-1m',
    title: 'PostgreSQL, 1,000,000 users, 1 instance: GET /users, a page 10 from the end, p99',
    how: 'p99 of the 2xx answers (offset 999,800), 50 connections, median over the runs',
    unit: 'ms',
    direction: 'below',
    guarded: false,
    threshold: 100,
  },
  post: {
    id: 'pg-post-1m',
    title: 'PostgreSQL, 1,000,000 users, 1 instance: POST /users',
    how: 'acknowledged (committed) creates per second, 2,000 per run, 50 connections',
    unit: 'writes/s',
    direction: 'at-least',
    guarded: false,
    threshold: 500,
  },
} as const satisfies Record<string, Target>;

const ok = (r: LoadResult) => r.okPerSecond;
const p99 = (r: LoadResult) => r.latencyMs.p99;

function runsOf(run: BenchRun, key: PgSubjectKey, users: number, request: PgRequestKey) {
  return run.postgres.loads.get(pgLoadId(key, users, request)) ?? [];
}

function values<T>(runs: (LoadResult | undefined)[], figure: (r: LoadResult) => T): T[] {
  return runs.filter((r): r is LoadResult => r !== undefined).map(figure);
}

export function postgresTargets(run: BenchRun): JudgedTarget[] {
  const measured = run.settings.postgresUsers.includes(TARGET_USERS);
  const missing: Missing =
    run.settings.groups.has('postgres') && measured
      ? { kind: 'error', reason: 'not measured (PostgreSQL phase failed; see errors)' }
      : {
          kind: 'skipped',
          reason: run.settings.groups.has('postgres')
            ? 'not run (--pg-users without 1000000)'
            : 'not run (--only postgres --pg-users 1000000)',
        };
  const judged = (target: Target, request: PgRequestKey, figure: (r: LoadResult) => number) => {
    const runs = runsOf(run, 'pg1', TARGET_USERS, request);
    const bad = runs.reduce((sum, r) => sum + (r ? r.non2xx + r.errors : 0), 0);
    return judge(
      target,
      spread(values(runs, figure)),
      missing,
      bad > 0 ? `${bad} non-2xx/errors` : undefined,
    );
  };
  return [
    judged(PG_TARGETS.listFirstP99, 'list-first', p99),
    judged(PG_TARGETS.listDeepP99, 'list-deep', p99),
    judged(PG_TARGETS.post, 'post', ok),
  ];
}

function runsP99(run: BenchRun, key: PgSubjectKey, users: number, request: PgRequestKey) {
  return runsOf(run, key, users, request).map((r) => r?.latencyMs.p99);
}

type Add = (id: string, title: string, unit: string, values: number[], note?: string) => void;

/** Seeds, and every subject's throughput against Express hello and against the JSON file. */
export function postgresInfo(run: BenchRun, add: Add): void {
  for (const db of run.postgres.databases) {
    const users = db.users.toLocaleString('en-US');
    add(`pg-seed-${db.users}`, `PostgreSQL seed of ${users} users`, 's', [db.seedSeconds]);
    add(`pg-size-${db.users}`, `PostgreSQL database of ${users} users`, 'MB', [db.sizeMb]);
  }
  for (const users of run.settings.postgresUsers) {
    const baseline = (run.postgres.baselines.get(users) ?? []).map((r) => r?.okPerSecond);
    const baselineP99 = (run.postgres.baselines.get(users) ?? []).map((r) => r?.latencyMs.p99);
    const sized = `${users.toLocaleString('en-US')} users`;
    add(`pg-hello-${users}`, `Express 5 hello (baseline of the ${sized} runs)`, '2xx/s', [
      ...values(run.postgres.baselines.get(users) ?? [], ok),
    ]);
    for (const request of pgRequests(users)) {
      const file = runsOf(run, 'file', users, request.key).map((r) => r?.okPerSecond);
      for (const key of ['file', 'pg1', 'pg3'] as const) {
        const subject = runsOf(run, key, users, request.key).map((r) => r?.okPerSecond);
        const what = `${sized}, ${PG_SUBJECT_NAMES[key]}: ${request.label}`;
        const id = `pg-${key}-${users}-${request.key}`;
        add(`${id}-vs-hello`, `${what} ÷ Express 5 hello`, 'x', pairedRatios(subject, baseline));
        if (request.method === 'GET')
          add(
            `${id}-p99-vs-hello`,
            `${what}: p99 ÷ Express 5 hello p99`,
            'x',
            pairedRatios(runsP99(run, key, users, request.key), baselineP99),
          );
        if (key !== 'file')
          add(`${id}-vs-file`, `${what} ÷ the JSON file`, 'x', pairedRatios(subject, file));
      }
    }
  }
}

/** Every load measurement of the phase, the baselines first. */
export function postgresMeasurementRows(run: BenchRun): MeasurementRow[] {
  const rows: MeasurementRow[] = [];
  for (const users of run.settings.postgresUsers) {
    const sized = `at ${users.toLocaleString('en-US')} users`;
    const hello = values(run.postgres.baselines.get(users) ?? [], (r) => r);
    if (hello.length)
      rows.push({
        id: `pg-hello@${users}`,
        subject: 'Express 5 hello',
        request: `GET / (baseline ${sized})`,
        runs: hello,
      });
    for (const key of ['file', 'pg1', 'pg3'] as const)
      for (const request of pgRequests(users)) {
        const runs = values(runsOf(run, key, users, request.key), (r) => r);
        if (runs.length)
          rows.push({
            id: `pg-${pgLoadId(key, users, request.key)}`,
            subject: PG_SUBJECT_NAMES[key],
            request: `${request.label} ${sized}`,
            runs,
          });
      }
  }
  return rows;
}
