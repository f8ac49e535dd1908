import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
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
  resolveServerConfig,
  ServerConfigError,
  type ServerConfig,
  type ServerOptions,
} from '../node-runtime/server-config.js';
import { openServerRepository } from './open-server-repository.js';
import { unavailableLog } from './http/unavailable-log.js';
import type { RateLimitOptions } from './http/rate-limits.js';
import { drainServer } from '../node-runtime/drain-server.js';
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
  /** Demo accounts whose configured password replaced the one the kept store held (0103). */
  passwordsRotated: string[];
  /** Drains: in-flight requests complete, new ones get 503; then the store closes. */
  close(): Promise<void>;
}

const DRAIN_TIMEOUT_MS = 10_000;

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
  const { ctx, api, seeded } = await createCore(
    {
      async openRepository(seed) {
        const opened = await openServerRepository(config, seed, options.adapter);
        store = opened.store;
        windowCounters = opened.windowCounters;
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
        ...(log ? { onUnavailable: unavailableLog(log) } : {}),
      })),
    },
  );
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
  let draining = false;
  const app = createApp({
    api,
    rateLimits: {
      perMinute: config.rateLimit,
      loginPerMinute: config.loginRateLimit,
      ...(windowCounters ? { counters: windowCounters } : {}),
    },
    isDraining: () => draining,
    ...(config.trustProxy ? { trustProxy: config.trustProxy } : {}),
    ...(log ? { log } : {}),
  });
  const server = createHttpServer(app);
  server.on('clientError', answerClientError);
  const url = await listenServer(server, config.port, config.host);
  let closing: Promise<void> | undefined;
  return {
    url,
    app,
    server,
    store,
    ctx,
    config,
    seeded,
    passwordsRotated,
    close() {
      closing ??= (async () => {
        draining = true;
        await drainServer(server, DRAIN_TIMEOUT_MS);
        await ctx.repo.close();
      })();
      return closing;
    },
  };
}
