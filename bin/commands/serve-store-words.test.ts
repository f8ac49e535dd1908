import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  jsonLogLines as logLines,
  startCli,
  type RunningCli,
} from '../../test/support/mock-server/start-cli.js';

// Issue 31: the banner says what the store holds, and the log what this start did to it.
// Runs the built CLI: `npm run build` first (npm test does).
let dir: string;
const started: RunningCli[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-store-words-'));
});
afterAll(async () => {
  await Promise.all(started.map((cli) => cli.stop()));
  await rm(dir, { recursive: true, force: true });
}, 30_000);

async function serve(db: string, logFormat = 'json'): Promise<RunningCli> {
  const cli = await startCli(['serve', '--port', '0', '--db', db, '--log-format', logFormat]);
  started.push(cli);
  return cli;
}

describe('apikit serve on a file: the banner and the log say what the store holds', () => {
  it('"seeded demo data" on a new file, "kept data" with the users it holds after a change', async () => {
    const db = join(dir, 'db.json');
    const first = await serve(db);
    const seeded = /Store: {3}(\S+) \(seeded demo data: (\d+) users, (\d+) orders\)/.exec(
      first.stdout(),
    );
    expect(seeded?.[1], first.stdout()).toBe(db);
    const users = Number(seeded?.[2]);
    const [created] = await logLines(first, 'store file created and seeded');
    expect(created).toMatchObject({
      level: 'info',
      file: '<path>/db.json', // no absolute path in a log line (decision 0023)
      data: 'demo',
      users,
      orders: Number(seeded?.[3]),
    });
    expect(first.stderr()).not.toContain('store file opened');

    // A change, then a start on the same file: kept, and counted as it is now.
    const login = await fetch(`${first.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const create = await fetch(`${first.url}/api/v1/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ name: 'Kept Kim', email: 'kept.kim@example.com' }),
    });
    expect(create.status).toBe(201);
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const again = await serve(db);
    expect(again.stdout()).toContain(`Store:   ${db} (kept data: ${users + 1} users)`);
    expect(again.stdout()).not.toContain('seeded');
    const [kept] = await logLines(again, 'store file opened: data kept');
    expect(kept).toMatchObject({ level: 'info', file: '<path>/db.json', users: users + 1 });
    expect(again.stderr()).not.toContain('store file created');
    expect(await again.stop()).toEqual({ code: 0, signal: null });

    // --log-format off: the banner still says it; no log line does.
    const quiet = await serve(db, 'off');
    expect(quiet.stdout()).toContain(`(kept data: ${users + 1} users)`);
    expect(quiet.stderr()).not.toContain('store file');
    expect(await quiet.stop()).toEqual({ code: 0, signal: null });
  }, 60_000);
});
