import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import { basename, isAbsolute } from 'node:path';
import type { Express } from 'express';
import { loadBundledSpec } from '../spec/bundled-spec.js';
import { specPath } from '../spec/spec-path.js';
import { createCore } from '../core/create-core.js';
import { dataSetSeed } from '../core/data-set/load-data-set.js';
import type { SeedSource } from '../core/domain/seed-dataset.js';
import type { DomainContext } from '../core/domain/ports.js';
import type { Store } from '../core/domain/store.js';
import { answerClientError } from '../node-runtime/client-error.js';
import { createApp } from './http/create-app.js';
import { logSafeError } from './http/log-safe-error.js';
import { createJwtAccessTokenCodec } from '../node-runtime/jwt-access-token-codec.js';
import { createScryptPasswordHasher } from '../node-runtime/scrypt-password-hasher.js';
import {
  accountsOpenedByDemoPasswords,
  applyDemoPasswords,
} from '../core/domain/demo-passwords.js';
import {
  isLoopback,
  redactUrl,
  resolveServerConfig,
  ServerConfigError,
  type ServerConfig,
  type ServerOptions,
} from '../node-runtime/server-config.js';
import { openServerRepository, type ServerRepository } from './open-server-repository.js';
import type { Dataset } from '../core/domain/dataset.js';
import { storeOutageLog, watchAvailability, type StoreOutageLog } from './http/unavailable-log.js';
import type { RateLimitOptions } from './http/rate-limits.js';
import { serverStop } from './server-stop.js';
import { listenServer } from '../node-runtime/listen-server.js';

/** A listening reference server. */
export interface RunningServer {
  /** Base URL of the server, e.g. `http://127.0.0.1:3000` (the API is under `/api/v1`). */
  url: string;
  app: Express;
  server: Server;
  /** The data set store under the repository (the JSON file or memory); none on PostgreSQL. */
  store: Store | undefined;
  ctx: DomainContext;
  config: ServerConfig;
  /** Whether this start made a new store from the seed (false: an existing store file was kept). */
  seeded: boolean;
  /**
   * What the store holds as the server starts: the seed's users and orders when this start
   * seeded it, else the users kept (the file's or the database's; orders are not counted).
   */
  holds: { users: number; orders?: number };
  /** The PostgreSQL migrations this start applied (`0004 claim-owners`); empty otherwise. */
  migrated: string[];
  /** Demo accounts whose configured password replaced the one the kept store held (0103). */
  passwordsRotated: string[];
  /**
   * The first step of a stop (decision 0111): `/readyz` answers 503 from now on and every
   * answer closes its connection, while requests are still served. `close()` does it too.
   */
  stopReadiness(): void;
  /** Drains: in-flight requests complete, new ones get 503; then the store closes. */
  close(): Promise<void>;
}

/**
 * Starts the reference server: the store (JSON file or memory), the domain, the pipeline and
 * the Express app, listening on `port` (0 picks a free one).
 *
 * @example
 * const server = await createServer({ port: 0, memory: true });
 * await fetch(`${server.url}/healthz`);
 * await server.close();
 */
export async function createServer(options: ServerOptions = {}): Promise<RunningServer> {
  const config = resolveServerConfig(options);
  // Read while the store opens. The precompiled bundle, not swagger-parser: see decision 0027.
  const contract = Promise.all([loadBundledSpec(), readFile(specPath, 'utf8')]);
  contract.catch(() => {}); // awaited below; a store failure must not leave it unhandled
  const log = options.log;
  // A data set of its own is checked against the contract before the store is opened: a bad
  // one is refused (every problem listed) with nothing written.
  const dataSet: SeedSource =
    typeof config.data === 'string' || 'build' in config.data
      ? config.data
      : dataSetSeed(config.data, (await contract)[0].spec, 'createServer({ data })');
  let store: Store | undefined;
  let windowCounters: RateLimitOptions['counters'];
  const stop = serverStop();
  let opening: WatchedRepository | undefined;
  const outage = log && storeOutageLog(log); // 503s, and the store's return after them
  const { ctx, api, seeded } = await createCore(
    {
      async openRepository(seed) {
        const opened = (opening = await openWatched(config, seed, options.adapter, outage));
        store = opened.store;
        windowCounters = opened.windowCounters;
        stop.ping = opened.ping;
        return opened.repository;
      },
      passwords: createScryptPasswordHasher(),
      tokens: createJwtAccessTokenCodec(config.jwtSecret),
    },
    {
      config: {
        accessTokenTtlSeconds: config.accessTokenTtlSeconds,
        demoPasswords: { admin: config.adminPassword, user: config.userPassword },
        dataSet,
      },
      pipeline: contract.then(([{ spec, json }, yaml]) => ({
        spec,
        // `json()` is made once per process, on first call (loadBundledSpec); the YAML is the file.
        documents: { json, yaml: () => yaml },
        corsOrigins: config.corsOrigins,
        onUnexpectedError: (error: unknown, requestId: string) =>
          log?.({
            time: new Date().toISOString(),
            level: 'error',
            msg: 'unexpected error',
            requestId,
            error: logSafeError(error),
          }),
        ...(outage ? { onUnavailable: outage.unavailable } : {}),
      })),
    },
  );
  const holding = await storeOpened(ctx, config, log, seeded, opening);
  // Secrets follow configuration: a kept store takes the passwords set now, and a server
  // reachable from outside holds no demo password, whatever seeded it (decision 0103).
  const passwordsRotated = seeded ? [] : await applyDemoPasswords(ctx, config.configuredPasswords);
  if (!isLoopback(config.host)) {
    const open = await accountsOpenedByDemoPasswords(ctx);
    if (open.length > 0) {
      await ctx.repo.close();
      throw new ServerConfigError(
        `Refusing to listen on ${config.host}: the store lets ${open.join(' and ')} log in with a documented demo password; set APIKIT_ADMIN_PASSWORD and APIKIT_USER_PASSWORD`,
      );
    }
  }
  const app = createApp({
    api,
    rateLimits: {
      perMinute: config.rateLimit,
      loginPerMinute: config.loginRateLimit,
      ...(windowCounters ? { counters: windowCounters } : {}),
    },
    ...stop.app,
    ...(config.trustProxy ? { trustProxy: config.trustProxy } : {}),
    ...(log ? { log } : {}),
  });
  const server = createHttpServer(app);
  server.on('clientError', answerClientError);
  const url = await listenServer(server, config.port, config.host);
  return {
    url,
    app,
    server,
    store,
    ctx,
    config,
    seeded,
    ...holding,
    passwordsRotated,
    stopReadiness: stop.stopReadiness,
    close: () => stop.close(server, () => ctx.repo.close()),
  };
}

/** The server's store, counted when this start seeded it and watched for outages' ends. */
type WatchedRepository = ServerRepository & { seededHolds?: { users: number; orders: number } };

/**
 * Opens the store (`openServerRepository`), counting the users and orders of the seed should
 * this start load one. With an outage log, the repository tells it when the store answers again.
 */
async function openWatched(
  config: ServerConfig,
  seed: () => Promise<Dataset>,
  adapter: ServerOptions['adapter'],
  outage: StoreOutageLog | undefined,
): Promise<WatchedRepository> {
  let seededHolds: WatchedRepository['seededHolds'];
  const counted = async () => {
    const dataset = await seed();
    const count = (records: object) => Object.keys(records).length;
    seededHolds = { users: count(dataset.users), orders: count(dataset.orders) };
    return dataset;
  };
  const opened = await openServerRepository(config, counted, adapter);
  if (!outage) return { ...opened, seededHolds };
  // PostgreSQL answers reads itself; the file store answers them from memory.
  const repository = watchAvailability(opened.repository, outage, { reads: !opened.store });
  return { ...opened, repository, seededHolds };
}

/** What the store holds as the server starts (the seed's counts, else the users kept), logged. */
async function storeOpened(
  ctx: DomainContext,
  config: ServerConfig,
  log: ServerOptions['log'],
  seeded: boolean,
  opening: WatchedRepository | undefined,
): Promise<{ holds: { users: number; orders?: number }; migrated: string[] }> {
  const holds = opening?.seededHolds ?? {
    users: (await ctx.repo.listUsers({ sort: [], offset: 0, limit: 0 })).total,
  };
  const migrated = opening?.migrated ?? [];
  if (log) logStoreOpened(log, config, { seeded, holds, migrated });
  return { holds, migrated };
}

/**
 * The lines that say what this start did to the store: which migrations it applied to which
 * database, whether it seeded the store (how many users and orders) or opened one it keeps
 * (how many users). An instance names itself (`host:pid`): several share one database.
 */
function logStoreOpened(
  log: (line: Record<string, unknown>) => void,
  config: ServerConfig,
  what: { seeded: boolean; holds: { users: number; orders?: number }; migrated: string[] },
): void {
  const base = { time: new Date().toISOString(), level: 'info' };
  const data = typeof config.data === 'string' ? config.data : 'own data set';
  if (config.databaseUrl !== undefined) {
    const database = redactUrl(config.databaseUrl);
    const instance = `${hostname()}:${process.pid}`;
    if (what.migrated.length > 0) {
      log({ ...base, msg: 'database migrated', database, migrations: what.migrated, instance });
    }
    log(
      what.seeded
        ? { ...base, msg: 'database seeded', database, data, ...what.holds, instance }
        : { ...base, msg: 'database opened: data kept', database, ...what.holds, instance },
    );
  } else if (config.dbFile !== undefined) {
    // No absolute path in a log line (decision 0023): the file's name stands for it.
    const file = isAbsolute(config.dbFile) ? `<path>/${basename(config.dbFile)}` : config.dbFile;
    log(
      what.seeded
        ? { ...base, msg: 'store file created and seeded', file, data, ...what.holds }
        : { ...base, msg: 'store file opened: data kept', file, ...what.holds },
    );
  }
}
