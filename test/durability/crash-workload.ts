import type { SeededRandom } from '../../spec/schema/seeded-random.js';
import { authJson, REQUEST_TIMEOUT_MS } from './api-calls.js';
import type { CrashModel, CrashOp } from './crash-model.js';

/** What one round of load saw before the kill. */
export interface CrashRound {
  /** Acknowledged writes by kind. */
  acked: Record<CrashOp['kind'], number>;
  /** Ids of users and orders created and acknowledged in this round. */
  createdUsers: number[];
  createdOrders: number[];
  /** Writes sent and never answered (cut by the kill): each may be in the file, but only whole. */
  cut: CrashOp[];
  /** Answers other than the expected 2xx (there should be none). */
  unexpected: string[];
}

export interface CrashLoadOptions {
  api: string;
  token: string;
  round: number;
  random: SeededRandom;
  model: CrashModel;
  /** User ids each worker owns (one list per worker): only its owner writes to a user. */
  owned: number[][];
  stopped: () => boolean;
  onAcknowledged: () => void;
}

/** A bound on each worker's requests per round, whatever happens. */
const MAX_OPS_PER_WORKER = 5_000;

const EXPECTED: Record<CrashOp['kind'], number> = {
  create: 201,
  order: 201,
  replace: 200,
  patch: 200,
  delete: 204,
};

/**
 * Mixed writes from one worker per `owned` list until `stopped()`: creates, PUT replacements,
 * PATCHes, deletes (which cascade to orders and items) and orders with 1-4 items, each one
 * request and one store mutation. Each worker owns its users, so its writes to them are
 * sequential and the model knows each user's exact state after every acknowledgement. A worker
 * stops at its first unanswered request (its outcome is then for the file to tell).
 */
export async function runCrashLoad(options: CrashLoadOptions): Promise<CrashRound> {
  const result: CrashRound = {
    acked: { create: 0, order: 0, replace: 0, patch: 0, delete: 0 },
    createdUsers: [],
    createdOrders: [],
    cut: [],
    unexpected: [],
  };
  const worker = async (w: number, owned: number[]) => {
    for (let n = 0; n < MAX_OPS_PER_WORKER && !options.stopped(); n += 1) {
      const op = nextOp(options.random, owned, `r${options.round}w${w}n${n}`);
      let res: Response;
      try {
        res = await send(options, op);
      } catch {
        result.cut.push(op);
        return;
      }
      // The status line came after the commit: acknowledged, even if the body is then cut.
      await res.text().catch(() => '');
      if (res.status !== EXPECTED[op.kind]) {
        result.unexpected.push(`${op.kind} -> ${res.status}`);
        result.cut.push(op); // its outcome is unknown to the model
        return;
      }
      const id = Number(/\/(\d+)$/.exec(res.headers.get('location') ?? '')?.[1]);
      options.model.apply(op, id);
      result.acked[op.kind] += 1;
      if (op.kind === 'create') {
        owned.push(id);
        result.createdUsers.push(id);
      } else if (op.kind === 'order') result.createdOrders.push(id);
      else if (op.kind === 'delete') owned.splice(owned.indexOf(op.userId), 1);
      options.onAcknowledged();
    }
  };
  await Promise.all(options.owned.map((owned, w) => worker(w, owned)));
  return result;
}

function nextOp(random: SeededRandom, owned: number[], tag: string): CrashOp {
  const roll = owned.length === 0 ? 0 : random.int(0, 99);
  const age = random.int(18, 90);
  if (roll < 30)
    return { kind: 'create', name: `Crash ${tag}`, email: `${tag}@crash.example.com`, age };
  const userId = owned[random.int(0, owned.length - 1)] as number;
  if (roll < 55) {
    const items = Array.from({ length: random.int(1, 4) }, (_, i) => `item-${tag}-${i}x${i + 1}`);
    return { kind: 'order', userId, product: `order-${tag}`, items };
  }
  if (roll < 70)
    return {
      kind: 'replace',
      userId,
      name: `Put ${tag}`,
      email: `put-${tag}@crash.example.com`,
      age,
    };
  if (roll < 85) return { kind: 'patch', userId, name: `Patch ${tag}`, age };
  return { kind: 'delete', userId };
}

function send(options: CrashLoadOptions, op: CrashOp): Promise<Response> {
  const request = (method: string, path: string, body?: object) =>
    fetch(`${options.api}${path}`, {
      method,
      headers: authJson(options.token),
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  switch (op.kind) {
    case 'create':
      return request('POST', '/users', { name: op.name, email: op.email, age: op.age });
    case 'replace':
      return request('PUT', `/users/${op.userId}`, { name: op.name, email: op.email, age: op.age });
    case 'patch':
      return request('PATCH', `/users/${op.userId}`, { name: op.name, age: op.age });
    case 'delete':
      return request('DELETE', `/users/${op.userId}`);
    case 'order':
      return request('POST', `/users/${op.userId}/orders`, {
        product: op.product,
        categoryId: 1,
        items: op.items.map((item) => {
          const [product, quantity] = item.split(/x(?=\d+$)/);
          return { product, quantity: Number(quantity) };
        }),
      });
  }
}
