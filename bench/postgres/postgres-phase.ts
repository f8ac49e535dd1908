/**
 * The PostgreSQL phase (`--only postgres`, decision 0088): at each `--pg-users` size, a database
 * seeded with that many users, `apikit serve` on it with one instance and with three (autocannon
 * spreading its connections over them round-robin: a client-side balancer), and beside them the
 * JSON file at the same size where the bench has it; each run starts with Express 5 hello, the
 * baseline of its ratios, then every subject in an order rotating run by run.
 */
import { join } from 'node:path';
import type { Dataset } from '../../core/domain/dataset.js';
import type { ThrowawayCluster } from '../../scripts/postgres/throwaway-cluster.mjs';
import { fmt, log } from '../bench-log.js';
import type { BenchRun } from '../bench-run.js';
import { runLoad, type LoadResult } from '../load.js';
import { WRITE_BODY } from '../scenarios.js';
import { benchDataset, demoDataset, writeReferenceStore } from '../seed-store.js';
import { startHelloSubject } from '../subjects/hello-subject.js';
import { ADMIN, startReferenceServer } from '../subjects/reference-server-subject.js';
import { bearerHeaders, type Subject } from '../subjects/subject.js';
import { runSql, seedDatabase, startBenchCluster } from './pg-database.js';
import {
  FILE_STORE_MAX_USERS,
  PG_SUBJECT_NAMES,
  pgLoadId,
  pgRequests,
  type PgRequest,
  type PgSubjectKey,
} from './pg-figures.js';
import { startPostgresInstances } from './pg-subjects.js';

/** POSTs per measurement (after 100 discarded ones the first time), at most 20 s. */
const POST_AMOUNT = 2_000;
const POST_MAX_SECONDS = 20;

/** A subject of the phase: the origins it is spread over, the token, how to log in again. */
interface PgTarget {
  key: PgSubjectKey;
  origins: string[];
  headers: Record<string, string>;
}

export async function postgresPhase(run: BenchRun): Promise<void> {
  let cluster: ThrowawayCluster | undefined;
  let hello: Subject | undefined;
  try {
    cluster = await startBenchCluster(run.settings.postgresConf);
    const conf = Object.entries(run.settings.postgresConf).map(([k, v]) => `${k}=${v}`);
    log(
      `PostgreSQL throwaway cluster at 127.0.0.1:${cluster.port}${conf.length ? ` (${conf.join(', ')})` : ''}`,
    );
    hello = await startHelloSubject('express');
    const demo = await demoDataset();
    for (const users of run.settings.postgresUsers)
      await measureSize(run, { cluster, hello, demo }, users);
  } catch (error) {
    run.fail('PostgreSQL phase', error);
  } finally {
    await hello?.stop();
    await cluster?.destroy();
  }
}

interface Context {
  cluster: ThrowawayCluster;
  hello: Subject;
  demo: Dataset;
}

/** Seeds the size's database, starts its subjects, measures them run by run, stops them. */
async function measureSize(run: BenchRun, context: Context, users: number): Promise<void> {
  const sized = users.toLocaleString('en-US');
  const db = await seedDatabase(context.cluster, context.demo, users);
  run.postgres.databases.push(db);
  log(
    `PostgreSQL database of ${sized} users seeded in ${db.seedSeconds.toFixed(1)} s (${Math.round(db.sizeMb)} MB)`,
  );
  const running: Subject[] = [];
  try {
    const targets: PgTarget[] = [];
    if (users <= FILE_STORE_MAX_USERS) {
      const dbFile = join(run.tmp, `postgres-phase-file-${users}.json`);
      await writeReferenceStore(dbFile, benchDataset(context.demo, users));
      const file = await startReferenceServer({ dbFile });
      running.push(file);
      targets.push({ key: 'file', origins: [file.url], headers: file.headers });
    }
    const instances = await startPostgresInstances(db.url, 3, run.settings.postgresPool);
    running.push(...instances);
    const origins = instances.map((s) => s.url);
    const headers = instances[0]?.headers ?? {};
    targets.push({ key: 'pg1', origins: origins.slice(0, 1), headers });
    targets.push({ key: 'pg3', origins, headers });
    for (let i = 0; i < run.settings.runs; i++) {
      await refreshTokens(targets);
      const baseline = await measure(run, [context.hello.url + '/'], context.hello.headers, i);
      const list = run.postgres.baselines.get(users) ?? [];
      list.push(baseline);
      run.postgres.baselines.set(users, list);
      log(`[run ${i + 1}/${run.settings.runs}] Express 5 hello ${fmt(baseline?.okPerSecond)}/s`);
      const rotated = [
        ...targets.slice(i % targets.length),
        ...targets.slice(0, i % targets.length),
      ];
      for (const target of rotated) await measureTarget(run, target, users, i);
    }
  } finally {
    await Promise.all(running.map((s) => s.stop()));
    // The next size's database takes the disk; this one is done.
    await runSql(context.cluster.url, `DROP DATABASE IF EXISTS bench_${users}`).catch(() => {});
  }
}

/** One login per run (tokens live 15 minutes); the PostgreSQL instances share its token. */
async function refreshTokens(targets: PgTarget[]): Promise<void> {
  const byOrigin = new Map<string, Record<string, string>>();
  for (const target of targets) {
    const origin = target.origins[0] as string;
    let headers = byOrigin.get(origin);
    if (!headers) {
      headers = await bearerHeaders(`${origin}/api/v1`, ADMIN.username, ADMIN.password);
      byOrigin.set(origin, headers);
    }
    target.headers = headers;
  }
}

async function measureTarget(
  run: BenchRun,
  target: PgTarget,
  users: number,
  index: number,
): Promise<void> {
  for (const request of pgRequests(users)) {
    const id = pgLoadId(target.key, users, request.key);
    const urls = target.origins.map((origin) => `${origin}/api/v1${request.path}`);
    const result = await measure(run, urls, target.headers, index, request, id);
    const list = run.postgres.loads.get(id) ?? [];
    list.push(result);
    run.postgres.loads.set(id, list);
    const bad = result ? result.non2xx + result.errors : 0;
    log(
      `[run ${index + 1}/${run.settings.runs}] ${users.toLocaleString('en-US')} users, ` +
        `${PG_SUBJECT_NAMES[target.key]}: ${request.label} ${fmt(result?.okPerSecond)}/s, ` +
        `p50 ${fmt(result?.latencyMs.p50)} ms, p99 ${fmt(result?.latencyMs.p99)} ms` +
        `${bad > 0 ? ` (${bad} non-2xx/errors ${JSON.stringify(result?.statusCodes)})` : ''}`,
    );
  }
}

/**
 * One measurement: reads for the run's duration, POSTs by count; the first of each request
 * and subject (run 0) after a discarded warmup.
 */
async function measure(
  run: BenchRun,
  urls: string[],
  headers: Record<string, string>,
  index: number,
  request?: PgRequest,
  id = 'hello',
): Promise<LoadResult | undefined> {
  const { settings } = run;
  const warm = index === 0;
  try {
    if (request?.method === 'POST')
      return await runLoad({
        url: urls,
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: WRITE_BODY,
        connections: settings.connections,
        amount: POST_AMOUNT,
        ...(warm ? { warmupAmount: 100 } : {}),
        maxSeconds: POST_MAX_SECONDS,
      });
    return await runLoad({
      url: urls,
      headers,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      maxSeconds: settings.durationSeconds + 10,
      ...(warm ? { warmupSeconds: settings.warmupSeconds } : {}),
    });
  } catch (error) {
    run.fail(`PostgreSQL phase ${id}`, error);
    return undefined;
  }
}
