import type { Dataset } from '../../core/domain/dataset.js';

/** One order as the test wrote it: the order and its items go in one request. */
export interface OrderState {
  id: number;
  product: string;
  /** `${product}x${quantity}`, sorted: what the file must hold for this order, exactly. */
  items: string[];
}

/** One user the test made, as every acknowledged write left it. */
export interface UserState {
  id: number;
  name: string;
  email: string;
  age: number | null;
  orders: Map<number, OrderState>;
}

/** A write the crash workload sends; `create` and `order` learn their id from Location. */
export type CrashOp =
  | { kind: 'create'; name: string; email: string; age: number }
  | { kind: 'replace'; userId: number; name: string; email: string; age: number }
  | { kind: 'patch'; userId: number; name: string; age: number }
  | { kind: 'delete'; userId: number }
  | { kind: 'order'; userId: number; product: string; items: string[] };

/**
 * What the test knows of its own writes: every user it made and did not delete, as its
 * acknowledged writes left it. Reconciled with the file after each kill: a write cut off by the
 * kill may or may not be in the file, but only whole, and the model then adopts the file's
 * answer.
 */
export class CrashModel {
  readonly users = new Map<number, UserState>();

  /** Applies an acknowledged write (`id`: the created user's or order's id). */
  apply(op: CrashOp, id?: number): void {
    if (op.kind === 'create') {
      const { name, email, age } = op;
      this.users.set(id as number, { id: id as number, name, email, age, orders: new Map() });
      return;
    }
    const user = this.users.get(op.userId);
    if (!user) throw new Error(`the model has no user ${op.userId}`);
    if (op.kind === 'replace') Object.assign(user, { name: op.name, email: op.email, age: op.age });
    else if (op.kind === 'patch') Object.assign(user, { name: op.name, age: op.age });
    else if (op.kind === 'delete') this.users.delete(op.userId);
    else
      user.orders.set(id as number, {
        id: id as number,
        product: op.product,
        items: [...op.items].sort(),
      });
  }

  /**
   * Checks the file against the model after a kill, given the writes that were cut off (sent,
   * never answered), and adopts the file's outcome of each: every violation found, and the ids
   * of users and orders that cut writes created.
   */
  reconcile(data: Dataset, cut: readonly CrashOp[], seedUserIds: ReadonlySet<number>): Reconciled {
    const problems: string[] = [];
    const adopted: Reconciled['adopted'] = { users: [], orders: [] };
    /** Cut updates and deletes the file shows applied (creations are counted in `adopted`). */
    let changed = 0;
    const ordersOf = indexOrders(data);
    const fileUsers = new Set(Object.keys(data.users).map(Number));
    const pendingOn = new Map<number, CrashOp>();
    for (const op of cut) if (op.kind !== 'create') pendingOn.set(op.userId, op);

    for (const user of [...this.users.values()]) {
      const pending = pendingOn.get(user.id);
      const record = data.users[String(user.id)];
      const orders = ordersOf.get(user.id) ?? new Map<number, OrderState>();
      if (!record) {
        if (pending?.kind !== 'delete') problems.push(`user ${user.id} lost from the file`);
        else changed += 1;
        if (orders.size > 0)
          problems.push(`user ${user.id} deleted but ${orders.size} orders left`);
        this.users.delete(user.id);
        continue;
      }
      const seen = { name: record.name, email: record.email, age: record.age };
      const asAcked = { name: user.name, email: user.email, age: user.age };
      const asPending =
        pending?.kind === 'replace'
          ? { name: pending.name, email: pending.email, age: pending.age }
          : pending?.kind === 'patch'
            ? { ...asAcked, name: pending.name, age: pending.age }
            : asAcked;
      if (same(seen, asPending)) {
        if (!same(asPending, asAcked)) changed += 1;
        Object.assign(user, asPending);
      } else if (!same(seen, asAcked))
        problems.push(
          `user ${user.id} is ${JSON.stringify(seen)}: neither ${JSON.stringify(asAcked)} nor the cut write`,
        );
      problems.push(...this.#reconcileOrders(user, orders, pending, adopted.orders));
    }

    const known = new Set([...seedUserIds, ...this.users.keys()]);
    for (const op of cut) {
      if (op.kind !== 'create') continue;
      const made = Object.values(data.users).filter((u) => u.email === op.email);
      if (made.length > 1)
        problems.push(`cut create ${op.email} is in the file ${made.length} times`);
      const record = made[0];
      if (!record) continue;
      if (record.name !== op.name || record.age !== op.age)
        problems.push(`cut create ${op.email} is half-applied`);
      if ((ordersOf.get(record.id)?.size ?? 0) > 0)
        problems.push(`new user ${record.id} has orders`);
      this.apply(op, record.id);
      known.add(record.id);
      adopted.users.push(record.id);
    }
    for (const id of fileUsers)
      if (!known.has(id)) problems.push(`user ${id} in the file was never written`);
    return {
      problems,
      adopted,
      applied: changed + adopted.users.length + adopted.orders.length,
    };
  }

  #reconcileOrders(
    user: UserState,
    inFile: Map<number, OrderState>,
    pending: CrashOp | undefined,
    adopted: number[],
  ): string[] {
    const problems: string[] = [];
    for (const order of user.orders.values()) {
      const found = inFile.get(order.id);
      if (!found) problems.push(`order ${order.id} of user ${user.id} lost`);
      else if (found.product !== order.product || !same(found.items, order.items))
        problems.push(`order ${order.id} changed: ${JSON.stringify(found)}`);
    }
    for (const found of inFile.values()) {
      if (user.orders.has(found.id)) continue;
      // Only the cut order may be new, and only whole: every item, nothing else.
      if (
        pending?.kind === 'order' &&
        found.product === pending.product &&
        same(found.items, [...pending.items].sort())
      ) {
        user.orders.set(found.id, found);
        adopted.push(found.id);
      } else
        problems.push(
          `order ${found.id} of user ${user.id} is unknown or half-applied: ${JSON.stringify(found)}`,
        );
    }
    return problems;
  }
}

/** The outcome of {@link CrashModel.reconcile}. */
export interface Reconciled {
  problems: string[];
  /** Ids that writes cut by the kill created (they made it to the file, whole). */
  adopted: { users: number[]; orders: number[] };
  /** How many of the cut writes the file shows applied (whole); the others are absent. */
  applied: number;
}

/**
 * What holds of any file the store leaves, whatever the test wrote: no order without its user,
 * no item without its order, counters at or above every id, and the seed's users, orders and
 * items exactly as seeded (the workload never touches them).
 */
export function checkFileInvariants(data: Dataset, seed: Dataset): string[] {
  const problems: string[] = [];
  for (const order of Object.values(data.orders)) {
    if (!data.users[String(order.userId)])
      problems.push(`order ${order.id} has no user ${order.userId}`);
  }
  for (const item of Object.values(data.orderItems)) {
    if (!data.orders[String(item.orderId)])
      problems.push(`item ${item.id} has no order ${item.orderId}`);
  }
  const max = (ids: string[]) => Math.max(0, ...ids.map(Number));
  if (data.counters.users < max(Object.keys(data.users))) problems.push('user counter below an id');
  if (data.counters.orders < max(Object.keys(data.orders)))
    problems.push('order counter below an id');
  if (data.counters.orderItems < max(Object.keys(data.orderItems)))
    problems.push('item counter below an id');
  for (const key of ['users', 'orders', 'orderItems'] as const) {
    for (const [id, record] of Object.entries(seed[key])) {
      if (!same(data[key][id], record)) problems.push(`seed ${key} ${id} changed`);
    }
  }
  return problems;
}

/** Orders (with their items, as `${product}x${quantity}`) by user id, from the file. */
function indexOrders(data: Dataset): Map<number, Map<number, OrderState>> {
  const items = new Map<number, string[]>();
  for (const item of Object.values(data.orderItems)) {
    const list = items.get(item.orderId) ?? [];
    list.push(`${item.product}x${item.quantity}`);
    items.set(item.orderId, list);
  }
  const byUser = new Map<number, Map<number, OrderState>>();
  for (const order of Object.values(data.orders)) {
    const orders = byUser.get(order.userId) ?? new Map<number, OrderState>();
    orders.set(order.id, {
      id: order.id,
      product: order.product,
      items: (items.get(order.id) ?? []).sort(),
    });
    byUser.set(order.userId, orders);
  }
  return byUser;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
