import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_WAIT_DEFAULT_SECONDS, SAY_EVERY_MS } from '../../bin/commands/database-wait.js';
import { DOMAIN_DEFAULTS } from '../../core/domain-defaults.js';
import { TOKEN_CACHE_MAX_ENTRIES } from '../../core/domain/caching-access-token-codec.js';
import { resolveServerConfig } from '../../node-runtime/server-config.js';
import { CLAIM_LEASE_SECONDS } from '../../core/pipeline/idempotency.js';
import {
  CLAIM_OWNER_CONNECTIONS,
  RETAKE_MS,
} from '../../reference-server/store/postgres/claim-owner.js';
import { APIKIT_LOCK, CLAIM_OWNER_LOCK } from '../../reference-server/store/postgres/migrate.js';
import { POOL_DEFAULTS } from '../../reference-server/store/postgres/postgres-pool.js';
import { toStoreError } from '../../reference-server/store/postgres/postgres-errors.js';
import { UNAVAILABLE_LOG_EVERY_MS } from '../../reference-server/http/unavailable-log.js';
import { StoreUnavailableError } from '../../core/domain/store.js';
import { DEFAULT_DRAIN_DELAY_SECONDS } from '../../node-runtime/drain-server.js';
import { READINESS_PING_MS } from '../../reference-server/server-stop.js';
import { packageRoot } from '../../spec/spec-path.js';

// The numbers docs/deploy.md gives an operator, each from the constant the code runs on: a
// change to one of them fails here until the page says the same.
const doc = (await readFile(join(packageRoot, 'docs', 'deploy.md'), 'utf8')).replace(/\s+/g, ' ');

const extra = CLAIM_OWNER_CONNECTIONS;
const seconds = (ms: number) => ms / 1000;
// What a refused connection becomes: the 503's Retry-After.
const refused = toStoreError(
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
);
const retryAfter = refused instanceof StoreUnavailableError ? refused.retryAfterSeconds : NaN;

describe('docs/deploy.md: numbers that come from the code', () => {
  it.each([
    ['the pool size', `connections (default ${POOL_DEFAULTS.size})`],
    ['the idle timeout', `closed after ${seconds(POOL_DEFAULTS.idleTimeoutMillis)} s idle`],
    [
      'the wait for a connection',
      `waits up to ${seconds(POOL_DEFAULTS.connectionTimeoutMillis)} s`,
    ],
    ['the connection besides the pool', `holds ${extra} connection for as long as it runs`],
    ['the sum over instances', `instances × (--database-pool + ${extra})`],
    ['its example', `3 × (20 + ${extra}) + 10 + 3 = ${3 * (20 + extra) + 10 + 3}`],
    ['the migrations lock', `pg_advisory_lock(${APIKIT_LOCK}, 0)`],
    ['the lock of an instance', `pg_advisory_lock(${CLAIM_OWNER_LOCK}, n)`],
    ['how long answers replay', `for ${DOMAIN_DEFAULTS.idempotencyTtlSeconds / 3600} hours`],
    ['the lease', `lease of ${CLAIM_LEASE_SECONDS} s`],
    ['a request outliving it', `still running after ${CLAIM_LEASE_SECONDS} s`],
    ['the lock taken again', `again within ${RETAKE_MS === 1000 ? 'a second' : `${RETAKE_MS} ms`}`],
    [
      'the wait of a request while the database does not answer',
      `at most the pool's ${seconds(POOL_DEFAULTS.connectionTimeoutMillis)} s`,
    ],
    ['the 503 of an outage', `Retry-After: ${retryAfter}\`, within milliseconds`],
    ['the 503 reason in the log', `at most once per ${seconds(UNAVAILABLE_LOG_EVERY_MS)} s`],
    ['the wait at start', `--database-wait\`** (default ${DATABASE_WAIT_DEFAULT_SECONDS} s)`],
    ['its line while waiting', `with a line on stderr every ${seconds(SAY_EVERY_MS)} s`],
    [
      'the drain delay',
      `(\`--drain-delay\`, \`APIKIT_DRAIN_DELAY\`, default ${DEFAULT_DRAIN_DELAY_SECONDS} s)`,
    ],
    ['the readiness ping', `a \`SELECT 1\` within ${seconds(READINESS_PING_MS)} s`],
    ['the token cache', `(up to ${TOKEN_CACHE_MAX_ENTRIES.toLocaleString('en-US')} tokens)`],
    [
      'the login budget',
      `(\`--login-rate-limit\`, ${resolveServerConfig({ memory: true }).loginRateLimit} a minute)`,
    ],
    [
      'how long an access token lives',
      `(${DOMAIN_DEFAULTS.accessTokenTtlSeconds / 60} minutes at most`,
    ],
  ])('%s: "%s"', (_what, text) => {
    expect(doc).toContain(text);
  });
});
