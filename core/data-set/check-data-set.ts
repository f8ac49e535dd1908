import type { ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { createAjv } from '../../spec/create-ajv.js';
import type { OpenApiDocument } from '../../spec/load-spec.js';
import { toErrorEntries } from '../pipeline/ajv-errors.js';
import { CATEGORIES } from '../domain/categories.js';
import type { OrderItemRecord, OrderRecord, RoleName, UserRecord } from '../domain/dataset.js';
import type { DataSetFile, DataSetProblem } from './data-set-format.js';

/**
 * A data set that passed every check, with the defaults filled in and times normalized: the
 * store's records (orders and items pushed once their schemas passed), but for a user's roles
 * by name and a password not hashed yet.
 */
export interface CheckedDataSet {
  users: (Omit<UserRecord, 'roleIds' | 'passwordHash'> & {
    roles: RoleName[];
    password: string | null;
  })[];
  orders: OrderRecord[];
  items: OrderItemRecord[];
}

export type DataSetCheck =
  { ok: true; data: CheckedDataSet } | { ok: false; problems: DataSetProblem[] };

const COLLECTIONS = ['users', 'orders', 'items'] as const;
const USER_FIELDS = new Set([
  'id',
  'name',
  'email',
  'age',
  'status',
  'roles',
  'password',
  'createdAt',
  'updatedAt',
]);
const ORDER_FIELDS = new Set([
  'id',
  'userId',
  'product',
  'categoryId',
  'status',
  'createdAt',
  'updatedAt',
]);

interface Validators {
  user: ValidateFunction;
  order: ValidateFunction;
  item: ValidateFunction;
  roles: ValidateFunction;
  password: ValidateFunction;
  maxItemsPerOrder: number;
}

// Compiled once per spec object: the server and the mocks check with the contract they serve.
const compiled = new WeakMap<OpenApiDocument, Validators>();

function validatorsFor(spec: OpenApiDocument): Validators {
  let found = compiled.get(spec);
  if (found) return found;
  const schemas = (spec.components?.schemas ?? {}) as Record<string, OpenAPIV3.SchemaObject>;
  const schema = (name: string): OpenAPIV3.SchemaObject => {
    const s = schemas[name];
    if (!s) throw new Error(`the contract has no schema ${name}`);
    return s;
  };
  const ajv = createAjv();
  const loginPassword = schema('LoginRequest').properties?.password as OpenAPIV3.SchemaObject;
  const orderItems = schema('Order').properties?.items as OpenAPIV3.ArraySchemaObject | undefined;
  found = {
    // The wire shapes: what the API will answer for these records must pass its own validation.
    user: ajv.compile(schema('UserDto')),
    order: ajv.compile(schema('Order')),
    item: ajv.compile(schema('OrderItem')),
    roles: ajv.compile({ type: 'array', uniqueItems: true, items: schema('RoleName') }),
    password: ajv.compile(loginPassword),
    maxItemsPerOrder: orderItems?.maxItems ?? Infinity,
  };
  compiled.set(spec, found);
  return found;
}

/**
 * Checks a data set of your own (docs/data-format.md) against the contract and the domain's
 * rules, listing every problem: each record against the spec's schema of what the API answers
 * for it (UserDto, Order, OrderItem), unknown fields, ids unique per collection, emails unique
 * (case-insensitively, as the API compares them), references that resolve (owner, category,
 * order), at most as many items per order as the contract's `Order.items` allows, updatedAt not
 * before createdAt, and at least one ADMIN who is not BLOCKED (the last-ADMIN rule). Missing
 * optional fields get their defaults; times are normalized to ISO 8601 UTC.
 *
 * @example
 * const checked = checkDataSet(JSON.parse(text), spec, new Date());
 * if (!checked.ok) throw new InvalidDataSetError(checked.problems, 'shop.json');
 */
export function checkDataSet(input: unknown, spec: OpenApiDocument, now: Date): DataSetCheck {
  const v = validatorsFor(spec);
  const problems: DataSetProblem[] = [];
  const problem = (pointer: string, message: string) => problems.push({ pointer, message });
  const nowIso = now.toISOString();

  if (!isObject(input)) {
    problem('', `must be a JSON object with ${COLLECTIONS.join(', ')} (got ${kind(input)})`);
    return { ok: false, problems };
  }
  for (const key of Object.keys(input)) {
    if (!(COLLECTIONS as readonly string[]).includes(key)) {
      problem(
        `/${escape(key)}`,
        key === 'roles' || key === 'categories'
          ? `is not part of a data set: the ${key} catalog is fixed by the contract (give each user's roles in users[].roles)`
          : `is not a known collection (known: ${COLLECTIONS.join(', ')})`,
      );
    }
  }
  const collection = (name: (typeof COLLECTIONS)[number], required: boolean): unknown[] => {
    const value = input[name];
    if (value === undefined) {
      if (required) problem(`/${name}`, 'is required (an array of records)');
      return [];
    }
    if (!Array.isArray(value)) {
      problem(`/${name}`, `must be an array of records (got ${kind(value)})`);
      return [];
    }
    return value;
  };
  const rawUsers = collection('users', true);
  const rawOrders = collection('orders', false);
  const rawItems = collection('items', false);

  const data: CheckedDataSet = { users: [], orders: [], items: [] };
  const userIds = new Map<number, number>();
  const orderIds = new Map<number, number>();
  const itemIds = new Map<number, number>();
  const emails = new Map<string, number>();

  rawUsers.forEach((raw, index) => {
    const at = `/users/${index}`;
    if (!isObject(raw)) return problem(at, `must be an object (got ${kind(raw)})`);
    unknownFields(raw, USER_FIELDS, at, problem);
    const before = problems.length;
    const createdAt = time(raw.createdAt, nowIso);
    const dto = defined({
      id: raw.id,
      name: raw.name,
      email: raw.email,
      age: raw.age === undefined ? null : raw.age,
      status: raw.status ?? 'ACTIVE',
      createdAt,
      updatedAt: time(raw.updatedAt, createdAt),
    });
    schemaProblems(v.user, dto, at, problem);
    const roles = raw.roles === undefined ? ['USER'] : raw.roles;
    schemaProblems(v.roles, roles, `${at}/roles`, problem);
    if (raw.password !== undefined)
      schemaProblems(v.password, raw.password, `${at}/password`, problem);
    datesInOrder(dto, at, problem);
    if (typeof raw.id === 'number') duplicate(userIds, raw.id, index, 'users', at, problem);
    if (typeof raw.email === 'string') {
      const key = raw.email.toLowerCase();
      const first = emails.get(key);
      if (first !== undefined) {
        problem(
          `${at}/email`,
          `${raw.email} is also the email of /users/${first} (emails are unique, compared case-insensitively)`,
        );
      } else emails.set(key, index);
    }
    if (problems.length > before) return;
    const held = new Set(roles as RoleName[]);
    held.add('USER'); // every user holds USER
    data.users.push({
      ...(dto as Omit<CheckedDataSet['users'][number], 'roles' | 'password'>),
      roles: (['USER', 'ADMIN'] as const).filter((role) => held.has(role)),
      password: (raw.password as string | undefined) ?? null,
    });
  });

  if (
    rawUsers.length > 0 &&
    !rawUsers.some(
      (raw) =>
        isObject(raw) &&
        Array.isArray(raw.roles) &&
        raw.roles.includes('ADMIN') &&
        (raw.status ?? 'ACTIVE') !== 'BLOCKED',
    )
  ) {
    problem(
      '/users',
      'holds no ADMIN who is not BLOCKED: the contract keeps at least one (give a user "roles": ["ADMIN"])',
    );
  }
  if (rawUsers.length === 0 && Array.isArray(input.users)) {
    problem('/users', 'is empty: a data set needs at least one user, an ADMIN');
  }

  // Sets, not a search per reference: a data set of 100,000 orders is checked in linear time.
  const knownUsers = idsOf(rawUsers);
  const knownOrders = idsOf(rawOrders);
  const itemsPerOrder = new Map<number, number>();
  rawItems.forEach((raw) => {
    if (isObject(raw) && typeof raw.orderId === 'number')
      itemsPerOrder.set(raw.orderId, (itemsPerOrder.get(raw.orderId) ?? 0) + 1);
  });

  rawOrders.forEach((raw, index) => {
    const at = `/orders/${index}`;
    if (!isObject(raw)) return problem(at, `must be an object (got ${kind(raw)})`);
    unknownFields(raw, ORDER_FIELDS, at, problem);
    const before = problems.length;
    const createdAt = time(raw.createdAt, nowIso);
    const dto = defined({
      id: raw.id,
      product: raw.product,
      userId: raw.userId,
      categoryId: raw.categoryId,
      status: raw.status ?? 'PENDING',
      createdAt,
      updatedAt: time(raw.updatedAt, createdAt),
    });
    schemaProblems(v.order, dto, at, problem);
    datesInOrder(dto, at, problem);
    if (typeof raw.id === 'number') duplicate(orderIds, raw.id, index, 'orders', at, problem);
    if (typeof raw.userId === 'number' && !knownUsers.has(raw.userId))
      problem(`${at}/userId`, `user ${raw.userId} is not in users`);
    if (
      typeof raw.categoryId === 'number' &&
      !CATEGORIES.some((category) => category.id === raw.categoryId)
    ) {
      problem(
        `${at}/categoryId`,
        `category ${raw.categoryId} is not in the catalog (${CATEGORIES.map((c) => `${c.id} ${c.name}`).join(', ')})`,
      );
    }
    const count = typeof raw.id === 'number' ? (itemsPerOrder.get(raw.id) ?? 0) : 0;
    if (count > v.maxItemsPerOrder)
      problem(at, `has ${count} items; the contract allows at most ${v.maxItemsPerOrder}`);
    if (problems.length > before) return;
    data.orders.push(dto as unknown as OrderRecord);
  });

  rawItems.forEach((raw, index) => {
    const at = `/items/${index}`;
    if (!isObject(raw)) return problem(at, `must be an object (got ${kind(raw)})`);
    const before = problems.length;
    // The schema names unknown fields itself (additionalProperties: false).
    schemaProblems(v.item, raw, at, problem);
    if (typeof raw.id === 'number') duplicate(itemIds, raw.id, index, 'items', at, problem);
    if (typeof raw.orderId === 'number' && !knownOrders.has(raw.orderId))
      problem(`${at}/orderId`, `order ${raw.orderId} is not in orders`);
    if (problems.length > before) return;
    data.items.push(raw as unknown as OrderItemRecord);
  });

  return problems.length > 0 ? { ok: false, problems } : { ok: true, data };
}

/** The documented format as a type, for callers that build a data set in code. */
export type { DataSetFile };

type Report = (pointer: string, message: string) => void;

function schemaProblems(validate: ValidateFunction, value: unknown, at: string, problem: Report) {
  if (validate(value)) return;
  for (const entry of toErrorEntries(validate.errors, '')) {
    // A readOnly id in a response schema still reads "id"; pointers are into the file.
    problem(at + entry.pointer, entry.detail);
  }
}

function unknownFields(
  raw: Record<string, unknown>,
  known: Set<string>,
  at: string,
  problem: Report,
) {
  for (const key of Object.keys(raw)) {
    if (!known.has(key))
      problem(`${at}/${escape(key)}`, `is not a known field (known: ${[...known].join(', ')})`);
  }
}

function duplicate(
  seen: Map<number, number>,
  id: number,
  index: number,
  name: string,
  at: string,
  problem: Report,
) {
  const first = seen.get(id);
  if (first !== undefined) problem(`${at}/id`, `${id} is also the id of /${name}/${first}`);
  else seen.set(id, index);
}

function datesInOrder(dto: Record<string, unknown>, at: string, problem: Report) {
  const created = Date.parse(String(dto.createdAt));
  const updated = Date.parse(String(dto.updatedAt));
  if (!Number.isNaN(created) && !Number.isNaN(updated) && updated < created)
    problem(`${at}/updatedAt`, `is before createdAt (${dto.createdAt})`);
}

/** A time normalized to ISO 8601 UTC when it parses; anything else is left for the schema. */
function time(value: unknown, fallback: unknown): unknown {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  return /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(ms) ? new Date(ms).toISOString() : value;
}

function idsOf(records: unknown[]): Set<unknown> {
  return new Set(records.map((record) => (isObject(record) ? record.id : undefined)));
}

function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
