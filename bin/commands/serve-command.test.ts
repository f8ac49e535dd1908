import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../../test/support/mock-server/start-cli.js';
import { packageRoot } from '../../spec/spec-path.js';
import { runCli } from '../../test/run-cli.js';

// Runs the built CLI: `npm run build` first (npm test does).
const shop = join(packageRoot, 'examples', 'data-sets', 'shop.json');
let dir: string;
const started: RunningCli[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-serve-data-'));
});
afterAll(async () => {
  await Promise.all(started.map((cli) => cli.stop()));
  await rm(dir, { recursive: true, force: true });
}, 30_000);

async function loginAs(url: string, username: string, password: string) {
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  return { Authorization: `Bearer ${((await res.json()) as { accessToken: string }).accessToken}` };
}

describe('apikit serve --data FILE', () => {
  it('serves the data set of the file, says so, and seeds a new store file from it', async () => {
    const db = join(dir, 'good', 'db.json');
    const cli = await startCli([
      'serve',
      '--port',
      '0',
      '--data',
      shop,
      '--db',
      db,
      '--log-format',
      'off',
    ]);
    started.push(cli);
    expect(cli.stdout()).toContain(`(seeded data from ${shop}: 4 users, `);
    expect(cli.stdout()).toContain('"username":"olivia@shop.example"');
    const auth = await loginAs(cli.url, 'olivia@shop.example', 'olivia-shop-password');
    const users = await fetch(`${cli.url}/api/v1/users`, { headers: auth });
    const page = (await users.json()) as { totalElements: number; content: { name: string }[] };
    expect(page.totalElements).toBe(4);
    expect(page.content.map((u) => u.name)).toEqual([
      'Olivia Owner',
      'Sam Shopper',
      'Nina New',
      'Bob Blocked',
    ]);
    const order = await fetch(`${cli.url}/api/v1/orders/1?expand=items`, { headers: auth });
    expect(((await order.json()) as { items: { product: string }[] }).items).toMatchObject([
      { product: 'Espresso machine', quantity: 1 },
      { product: 'Coffee beans 1 kg', quantity: 3 },
    ]);
    expect(await cli.stop()).toEqual({ code: 0, signal: null });
    expect(await readFile(db, 'utf8')).toContain('olivia@shop.example');

    // A second start keeps the store it finds, and says that --data did not apply.
    const again = await startCli([
      'serve',
      '--port',
      '0',
      '--data',
      shop,
      '--db',
      db,
      '--log-format',
      'off',
    ]);
    started.push(again);
    expect(again.stdout()).toContain(`${db} (kept data: 4 users)`);
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
    expect(again.stderr()).toMatch(
      /db\.json already exists and is kept: --data .* seeds only a new store/,
    );
    expect(await again.stop()).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('refuses a bad file with exit 2, listing every problem, and writes no store', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify({
        users: [
          { id: 1, name: 'A', email: 'a@example.com' },
          { id: 1, name: '', email: 'A@example.com', favourite: 'tea' },
        ],
        orders: [{ id: 1, userId: 9, product: 'Lamp', categoryId: 9 }],
        items: [{ id: 1, orderId: 2, product: 'Lamp', quantity: 1001 }],
      }),
    );
    const db = join(dir, 'bad-store', 'db.json');
    const { code, stdout, stderr } = await runCli([
      'serve',
      '--port',
      '0',
      '--data',
      bad,
      '--db',
      db,
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines[0]).toBe(
      `apikit: ${bad} is not a valid data set (9 problems; format: docs/data-format.md):`,
    );
    expect(lines.slice(1)).toEqual([
      '  /users/1/favourite: is not a known field (known: id, name, email, age, status, roles, password, createdAt, updatedAt)',
      '  /users/1/name: must NOT have fewer than 1 characters',
      '  /users/1/id: 1 is also the id of /users/0',
      '  /users/1/email: A@example.com is also the email of /users/0 (emails are unique, compared case-insensitively)',
      '  /users: holds no ADMIN who is not BLOCKED: the contract keeps at least one (give a user "roles": ["ADMIN"])',
      '  /orders/0/userId: user 9 is not in users',
      '  /orders/0/categoryId: category 9 is not in the catalog (1 Books, 2 Electronics, 3 Clothing, 4 Home & Garden, 5 Toys)',
      '  /items/0/quantity: must be <= 1000',
      '  /items/0/orderId: order 2 is not in orders',
    ]);
    expect(existsSync(join(dir, 'bad-store'))).toBe(false);
  }, 30_000);

  it('refuses a file that is missing or not JSON with exit 2 and writes no store', async () => {
    const db = join(dir, 'none', 'db.json');
    const missing = await runCli([
      'serve',
      '--port',
      '0',
      '--data',
      join(dir, 'nope.json'),
      '--db',
      db,
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `cannot read the data set ${join(dir, 'nope.json')}: no such file`,
    );
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{ "users": [ { "id": 1, } ] }');
    const notJson = await runCli(['serve', '--port', '0', '--data', broken, '--db', db]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/is not JSON: .*\(line 1, column \d+\)/);
    expect((await readdir(dir)).includes('none')).toBe(false);
  }, 30_000);
});
