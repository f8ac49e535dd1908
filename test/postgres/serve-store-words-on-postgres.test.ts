import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../reference-server/store/postgres/migrate.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';
import {
  jsonLogLines as logLines,
  startCli,
  type RunningCli,
} from '../support/mock-server/start-cli.js';

// Issue 31 on PostgreSQL: the start that migrates and seeds a new database says so in the log
// (which migrations, which database, which instance; how many users and orders) and the banner
// says "seeded demo data"; the next start on the same database migrates nothing and says
// "kept data" with the users it holds. Runs the built CLI: `npm run build` first.

const postgres = usePostgresCluster();
let dir: string;
const started: RunningCli[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-pg-store-words-'));
});
afterAll(async () => {
  await Promise.all(started.map((cli) => cli.stop()));
  await rm(dir, { recursive: true, force: true });
}, 30_000);

async function serve(databaseUrl: string): Promise<RunningCli> {
  const cli = await startCli([
    'serve',
    '--port',
    '0',
    '--database-url',
    databaseUrl,
    '--db',
    join(dir, 'not-used.json'),
    '--log-format',
    'json',
  ]);
  started.push(cli);
  return cli;
}

describe('apikit serve on PostgreSQL: the banner and the log say what the database holds', () => {
  it('migrates and seeds a new database and says so; the next start keeps it and says that', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const first = await serve(databaseUrl);
    const seeded = / \(seeded demo data: (\d+) users, (\d+) orders\)/.exec(first.stdout());
    expect(seeded, first.stdout()).not.toBeNull();
    expect(first.stdout()).toContain(`Store:   PostgreSQL ${databaseUrl} (seeded demo data`);
    const users = Number(seeded?.[1]);
    const instance = `${String(first.child.pid)}`;
    const [migrated] = await logLines(first, 'database migrated');
    expect(migrated).toMatchObject({
      level: 'info',
      database: databaseUrl,
      migrations: migrations.map((m) => `${String(m.version).padStart(4, '0')} ${m.name}`),
    });
    expect(String(migrated?.instance)).toMatch(new RegExp(`:${instance}$`));
    const [seed] = await logLines(first, 'database seeded');
    expect(seed).toMatchObject({ data: 'demo', users, orders: Number(seeded?.[2]) });
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const again = await serve(databaseUrl);
    expect(again.stdout()).toContain(
      `Store:   PostgreSQL ${databaseUrl} (kept data: ${users} users)`,
    );
    const [kept] = await logLines(again, 'database opened: data kept');
    expect(kept).toMatchObject({ level: 'info', database: databaseUrl, users });
    expect(again.stderr()).not.toContain('database migrated');
    expect(again.stderr()).not.toContain('database seeded');
    expect(await again.stop()).toEqual({ code: 0, signal: null });
  }, 120_000);
});
