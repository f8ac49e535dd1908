import { isIP } from 'node:net';
import type { Adapter } from 'lowdb';
import type { Dataset } from '../core/domain/dataset.js';
import type { DataSetFile } from '../core/data-set/data-set-format.js';
import type { OwnDataSeed } from '../core/domain/seed-dataset.js';
import { resolve } from 'node:path';
import { DOMAIN_DEFAULTS } from '../core/domain-defaults.js';
import { MIN_SECRET_BYTES, randomSigningSecret } from './jwt-access-token-codec.js';

/** Documented demo passwords (README): fine on a laptop, refused on a non-loopback address. */
export const DEMO_ADMIN_PASSWORD = DOMAIN_DEFAULTS.demoPasswords.admin;
export const DEMO_USER_PASSWORD = DOMAIN_DEFAULTS.demoPasswords.user;

/** What `apikit serve` and `createServer` accept; every field has a default. */
export interface ServerOptions {
  /** TCP port; 0 picks a free one (default 3000). */
  port?: number;
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /** The JSON store file (default ./data/db.json); ignored with `memory`. */
  dbFile?: string;
  /** Keep the store in memory (tests, throwaway demos). */
  memory?: boolean;
  /**
   * PostgreSQL as the store of record (`postgres://user:password@host:5432/db`; default the
   * DATABASE_URL variable): several instances may share it. Excludes `dbFile` and `memory`.
   */
  databaseUrl?: string;
  /** Connections this instance keeps to PostgreSQL at most (default 10). */
  databasePoolSize?: number;
  /**
   * Seed of a new store (and what `/admin/reset` restores): the demo data set, only the two
   * login accounts, or a data set of your own (docs/data-format.md; `createServer` checks it
   * against the contract and throws an InvalidDataSetError listing every problem before
   * anything is written).
   */
  data?: 'demo' | 'empty' | DataSetFile | OwnDataSeed;
  /** HS256 signing secret (>= 32 bytes); default APIKIT_JWT_SECRET, else random per start. */
  jwtSecret?: string;
  adminPassword?: string;
  userPassword?: string;
  /** Access token lifetime in seconds (default 900). */
  accessTokenTtlSeconds?: number;
  /** Requests a minute per client; 0 turns limiting off (default 1000). */
  rateLimit?: number;
  /** Login attempts a minute per address; 0 turns it off (default 20). */
  loginRateLimit?: number;
  /** Allowed CORS origins (default: any). */
  corsOrigins?: '*' | string[];
  /**
   * Proxies whose X-Forwarded-For names the client (Express's `trust proxy`: `loopback`,
   * addresses or CIDRs, a hop count); default APIKIT_TRUST_PROXY, else none.
   */
  trustProxy?: string;
  /** Structured log sink; default silent. */
  log?: (line: Record<string, unknown>) => void;
  /**
   * A lowdb adapter to persist through instead of the file or memory (fault tests inject a
   * failing one). Overrides `dbFile` and `memory`.
   */
  adapter?: Adapter<Dataset>;
}

export interface ServerConfig {
  port: number;
  host: string;
  /** The JSON store file; undefined in memory or on PostgreSQL. */
  dbFile: string | undefined;
  /** PostgreSQL's connection string, when it is the store. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  data: 'demo' | 'empty' | DataSetFile | OwnDataSeed;
  jwtSecret: string;
  /** The demo accounts' passwords set explicitly (option or environment), applied at every start. */
  configuredPasswords: { admin?: string; user?: string };
  adminPassword: string;
  userPassword: string;
  accessTokenTtlSeconds: number;
  rateLimit: number;
  loginRateLimit: number;
  corsOrigins: '*' | string[];
  trustProxy: string | undefined;
  /** Things the operator should know at start (a random secret, demo passwords in use). */
  warnings: string[];
}

/** A configuration the server refuses to start with. */
export class ServerConfigError extends Error {
  override name = 'ServerConfigError';
}

/**
 * Resolves options over the APIKIT_* environment (options win) and applies the contract's
 * safety rules: a secret of at least 32 bytes, and no demo passwords on a non-loopback address.
 */
export function resolveServerConfig(
  options: ServerOptions,
  env: NodeJS.ProcessEnv = process.env,
): ServerConfig {
  const warnings: string[] = [];
  const host = options.host ?? '127.0.0.1';
  let jwtSecret = options.jwtSecret ?? env.APIKIT_JWT_SECRET;
  if (!jwtSecret) {
    jwtSecret = randomSigningSecret();
    warnings.push(
      'No signing secret configured (APIKIT_JWT_SECRET or --jwt-secret): a random one is used, so tokens will not outlive a restart.',
    );
  } else if (Buffer.byteLength(jwtSecret) < MIN_SECRET_BYTES) {
    throw new ServerConfigError(
      `The JWT signing secret must be at least ${MIN_SECRET_BYTES} bytes`,
    );
  }
  const adminPassword = options.adminPassword ?? env.APIKIT_ADMIN_PASSWORD ?? DEMO_ADMIN_PASSWORD;
  const userPassword = options.userPassword ?? env.APIKIT_USER_PASSWORD ?? DEMO_USER_PASSWORD;
  // A data set of its own has its own accounts: the demo passwords are then not in the store.
  const usesDemoPasswords =
    (options.data === undefined || typeof options.data === 'string') &&
    (adminPassword === DEMO_ADMIN_PASSWORD || userPassword === DEMO_USER_PASSWORD);
  if (usesDemoPasswords && !isLoopback(host)) {
    throw new ServerConfigError(
      `Refusing to listen on ${host} with the documented demo passwords: set APIKIT_ADMIN_PASSWORD and APIKIT_USER_PASSWORD`,
    );
  }
  // An explicit --memory beats a DATABASE_URL left in the environment.
  const databaseUrl =
    options.databaseUrl ?? (options.memory ? undefined : env.DATABASE_URL || undefined);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ServerConfigError(
      `The database URL must be a PostgreSQL one (postgres://user:password@host:5432/database), not ${redactUrl(databaseUrl)}`,
    );
  }
  return {
    port: options.port ?? 3000,
    host,
    dbFile:
      options.memory || databaseUrl !== undefined
        ? undefined
        : resolve(options.dbFile ?? 'data/db.json'),
    databaseUrl,
    databasePoolSize: options.databasePoolSize ?? 10,
    data: options.data ?? 'demo',
    jwtSecret,
    adminPassword,
    userPassword,
    configuredPasswords: definedOnly({
      admin: options.adminPassword ?? env.APIKIT_ADMIN_PASSWORD,
      user: options.userPassword ?? env.APIKIT_USER_PASSWORD,
    }),
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? DOMAIN_DEFAULTS.accessTokenTtlSeconds,
    rateLimit: options.rateLimit ?? 1000,
    loginRateLimit: options.loginRateLimit ?? 20,
    corsOrigins: options.corsOrigins ?? '*',
    trustProxy: options.trustProxy ?? (env.APIKIT_TRUST_PROXY || undefined),
    warnings,
  };
}

/**
 * A connection string fit for logs and messages: its password replaced by `***`.
 *
 * @example
 * redactUrl('postgres://apikit:s3cret@db:5432/apikit'); // 'postgres://apikit:***@db:5432/apikit'
 */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

/** 127.0.0.0/8, ::1 and localhost; anything else (0.0.0.0 included) is reachable from outside. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '[::1]';
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
