import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/postgres/call-api.js';
import {
  startPostgresInstances,
  type PostgresInstances,
} from '../support/postgres/postgres-instances.js';

// Found by `apikit conform --fuzz 300 --seed 7` (issue 22): a JSON string holding U+0000
// ("\u0000") reached the database, whose `text` cannot hold it (22021 invalid byte sequence for
// encoding "UTF8": 0x00), and the answer was 500 where the file store accepts these requests
// (201/200) or refuses them before the store (400). The repository now stores U+0000 as
// U+0001 U+0001 and U+0001 as U+0001 U+0002, order kept (postgres-rows.ts `toText`, 0084).

let multi: PostgresInstances;
let token: string;

beforeAll(async () => {
  multi = await startPostgresInstances({ count: 1 });
  const body = JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' });
  const login = await callApi(multi.apis[0]!, 'POST', '/auth/login', { body });
  token = login.json<{ accessToken: string }>().accessToken;
}, 120_000);
afterAll(() => multi?.close());

const email = () => `nul-${Math.random().toString(36).slice(2)}@example.com`;
const order = (product: string) => ({ product, categoryId: 1, items: [{ product, quantity: 1 }] });

const cases: [string, string, string, () => unknown, boolean][] = [
  [
    'POST /users, name "\\u0000"',
    'POST',
    '/users',
    () => ({ name: '\u0000', email: email() }),
    true,
  ],
  [
    'PUT /users/2, name "Ada \\u0000 Lovelace"',
    'PUT',
    '/users/2',
    () => ({ name: 'Ada \u0000 Lovelace', email: 'user@example.com' }),
    true,
  ],
  [
    'POST /users/2/orders, item product "i\\u0000"',
    'POST',
    '/users/2/orders',
    () => order('i\u0000'),
    true,
  ],
  [
    'POST /auth/login (no token), username "admin\\u0000@example.com"',
    'POST',
    '/auth/login',
    () => ({ username: 'admin\u0000@example.com', password: 'x' }),
    false,
  ],
];

describe('strings holding U+0000 on PostgreSQL', () => {
  for (const [name, method, path, body, withToken] of cases) {
    it(`${name}: not a 5xx`, async () => {
      const answer = await callApi(multi.apis[0]!, method, path, {
        ...(withToken ? { token } : {}),
        body: JSON.stringify(body()),
      });
      expect(answer.status, answer.text).toBeLessThan(500);
    });
  }
});
