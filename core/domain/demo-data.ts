import type { Dataset, OrderItemRecord, OrderRecord, OrderStatus, UserRecord } from './dataset.js';
import { DEMO_PEOPLE, DEMO_PRODUCTS } from './demo-people.js';
import type { PasswordHasher } from './ports.js';
import { ADMIN_ROLE_ID, USER_ROLE_ID } from './role-ids.js';
import { seededRandom, type SeededRandom } from '../../spec/schema/seeded-random.js';
import { DEMO_ACCOUNTS } from './demo-passwords.js';

/** What the demo data set needs from its caller: hashing, the two passwords, and the time. */
export interface DemoDataOptions {
  passwords: PasswordHasher;
  demoPasswords: { admin: string; user: string };
  /** Becomes the data set's `createdAt` (the catalogs' Last-Modified). */
  now: Date;
}

const SEED = 0x5eed_a9c1;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();

type HandOrder = [
  userId: number,
  product: string,
  categoryId: number,
  status: OrderStatus,
  createdAt: string,
  updatedAt: string,
  items: [string, number][],
];

/**
 * Orders 1-8 are written by hand: 7 and 8 (Uma's) are the ones the spec's examples show, items
 * 12 and 13 included, so a reader can try the examples against a fresh server. Together they
 * hold every status.
 */
// prettier-ignore
const HAND_ORDERS: readonly HandOrder[] = [
  [1, 'Clean Code', 1, 'DELIVERED', '2026-01-15T11:20:00.000Z', '2026-01-21T15:45:00.000Z', [['Clean Code', 1]]],
  [3, 'Mechanical keyboard', 2, 'SHIPPED', '2026-01-15T13:05:00.000Z', '2026-01-18T08:30:00.000Z', [['Mechanical keyboard', 1], ['USB-C hub', 1]]],
  [4, 'Linen shirt', 3, 'PENDING', '2026-01-15T15:40:00.000Z', '2026-01-15T15:40:00.000Z', [['Linen shirt', 2]]],
  [5, 'Garden hose', 4, 'PAID', '2026-01-15T18:10:00.000Z', '2026-01-16T07:55:00.000Z', [['Garden hose', 1], ['Plant pot', 3]]],
  [6, 'Wooden train set', 5, 'CANCELLED', '2026-01-15T20:25:00.000Z', '2026-01-16T09:00:00.000Z', [['Wooden train set', 1], ['Building blocks', 2], ['Yo-yo', 3]]],
  [1, 'Desk lamp', 4, 'PAID', '2026-01-16T08:45:00.000Z', '2026-01-16T09:30:00.000Z', [['Desk lamp', 1], ['LED bulb', 2]]],
  [2, 'The Pragmatic Programmer', 1, 'PENDING', '2026-01-16T10:00:00.000Z', '2026-01-16T10:00:00.000Z', [['The Pragmatic Programmer', 1], ['Bookmark', 2]]],
  [2, 'Noise-cancelling headphones', 2, 'DELIVERED', '2026-01-17T08:15:00.000Z', '2026-01-24T16:40:00.000Z', [['Noise-cancelling headphones', 1]]],
];
const ORDER_COUNT = 60;
/** Drawn from for the generated orders: DELIVERED most often, CANCELLED least. */
const STATUS_WEIGHTS: readonly OrderStatus[] = [
  'PENDING',
  'PENDING',
  'PAID',
  'PAID',
  'SHIPPED',
  'SHIPPED',
  'DELIVERED',
  'DELIVERED',
  'DELIVERED',
  'CANCELLED',
];

function buildUsers(random: SeededRandom, hashes: { admin: string; user: string }): UserRecord[] {
  const opened = '2026-01-15T09:30:00.000Z';
  const users: UserRecord[] = [
    {
      id: 1,
      name: 'Ada Admin',
      email: DEMO_ACCOUNTS.admin,
      age: 36,
      status: 'ACTIVE',
      createdAt: opened,
      updatedAt: opened,
      roleIds: [USER_ROLE_ID, ADMIN_ROLE_ID],
      passwordHash: hashes.admin,
    },
    {
      id: 2,
      name: 'Uma User',
      email: DEMO_ACCOUNTS.user,
      age: null,
      status: 'ACTIVE',
      createdAt: opened,
      updatedAt: '2026-01-20T14:05:12.345Z',
      roleIds: [USER_ROLE_ID],
      passwordHash: hashes.user,
    },
  ];
  DEMO_PEOPLE.forEach((person, index) => {
    const id = index + 3;
    // Four early sign-ups own the hand-written orders; the rest join over the next seven weeks.
    const created =
      id <= 6
        ? at(opened) + (id - 2) * 25 * MINUTE
        : at('2026-01-16T12:00:00.000Z') + (id - 7) * 40 * HOUR + random.int(0, 119) * MINUTE;
    // Every account starts INACTIVE, so one in another status was changed after it was made.
    const updated =
      person.status === 'INACTIVE'
        ? created
        : created + random.int(1, 72) * HOUR + random.int(0, 59) * MINUTE;
    const age = random.next() < 0.12 ? null : random.int(18, 80);
    users.push({
      id,
      ...person,
      age,
      createdAt: iso(created),
      updatedAt: iso(updated),
      roleIds: [USER_ROLE_ID],
      passwordHash: null,
    });
  });
  return users;
}

function generatedOrder(random: SeededRandom, id: number, users: readonly UserRecord[]): HandOrder {
  const created =
    at('2026-01-18T09:00:00.000Z') + (id - 9) * 22 * HOUR + random.int(0, 179) * MINUTE;
  // Uma's orders stay the two the spec shows; any other user who existed by then may order.
  const owners = users.filter((user) => user.id !== 2 && at(user.createdAt) < created);
  const owner = random.pick(owners);
  const categoryId = random.int(1, 5);
  const products = DEMO_PRODUCTS[categoryId] ?? [];
  const product = random.pick(products);
  const status = random.pick(STATUS_WEIGHTS);
  const updated = status === 'PENDING' ? created : created + random.int(2, 240) * HOUR;
  const items: [string, number][] = [[product, random.int(1, 3)]];
  const extras = products.filter((candidate) => candidate !== product);
  for (let count = random.int(0, 2); count > 0; count--) {
    const extra = extras.splice(random.int(0, extras.length - 1), 1)[0];
    if (extra) items.push([extra, random.int(1, 5)]);
  }
  return [owner.id, product, categoryId, status, iso(created), iso(updated), items];
}

/**
 * Builds the deterministic demo data set: 36 users in every status (1 Ada Admin and 2 Uma User
 * can log in), 60 orders in every status with 1-3 items each, counters at the highest ids.
 * Only the password hashes differ between builds (they are salted).
 *
 * @example
 * const dataset = await buildDemoDataset({ passwords, demoPasswords: config.demoPasswords, now: clock() });
 */
export async function buildDemoDataset(options: DemoDataOptions): Promise<Dataset> {
  const [admin, user] = await Promise.all([
    options.passwords.hash(options.demoPasswords.admin),
    options.passwords.hash(options.demoPasswords.user),
  ]);
  const random = seededRandom(SEED);
  const users = buildUsers(random, { admin, user });
  const orders: OrderRecord[] = [];
  const items: OrderItemRecord[] = [];
  for (let id = 1; id <= ORDER_COUNT; id++) {
    const hand = HAND_ORDERS[id - 1] ?? generatedOrder(random, id, users);
    const [userId, product, categoryId, status, createdAt, updatedAt, lines] = hand;
    orders.push({ id, userId, product, categoryId, status, createdAt, updatedAt });
    for (const [itemProduct, quantity] of lines) {
      items.push({ id: items.length + 1, orderId: id, product: itemProduct, quantity });
    }
  }
  return {
    schemaVersion: 1,
    createdAt: options.now.toISOString(),
    counters: { users: users.length, orders: orders.length, orderItems: items.length },
    users: Object.fromEntries(users.map((record) => [String(record.id), record])),
    orders: Object.fromEntries(orders.map((record) => [String(record.id), record])),
    orderItems: Object.fromEntries(items.map((record) => [String(record.id), record])),
    refreshTokens: {},
    idempotency: {},
  };
}
