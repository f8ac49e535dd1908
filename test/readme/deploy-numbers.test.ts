import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOMAIN_DEFAULTS } from '../../core/domain-defaults.js';
import { CLAIM_LEASE_SECONDS } from '../../core/pipeline/idempotency.js';
import {
  CLAIM_OWNER_CONNECTIONS,
  RETAKE_MS,
} from '../../reference-server/store/postgres/claim-owner.js';
import { APIKIT_LOCK, CLAIM_OWNER_LOCK } from '../../reference-server/store/postgres/migrate.js';
import { POOL_DEFAULTS } from '../../reference-server/store/postgres/postgres-pool.js';
import { packageRoot } from '../../spec/spec-path.js';

// The numbers docs/deploy.md gives an operator, each from the constant the code runs on: a
// change to one of them fails here until the page says the same.
const doc = (await readFile(join(packageRoot, 'docs', 'deploy.md'), 'utf8')).replace(/\s+/g, ' ');

const extra = CLAIM_OWNER_CONNECTIONS;
const seconds = (ms: number) => ms / 1000;

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
  ])('%s: "%s"', (_what, text) => {
    expect(doc).toContain(text);
  });
});
