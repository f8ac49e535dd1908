import type { components } from '../../spec/openapi-types.js';
import { TEST_USER_PASSWORD } from '../start-test-server.js';
import { describeResponse, exchange, type Observed } from './exchange.js';

export type UserDto = components['schemas']['UserDto'];
export type Order = components['schemas']['Order'];
export type TokenPair = components['schemas']['TokenPair'];
type OrderStatus = Order['status'];

/** What the fixtures need of a running server: where it is and two demo tokens. */
export interface ServerHandle {
  /** Base URL, e.g. `http://127.0.0.1:4000`. */
  url: string;
  /** `${url}/api/v1` */
  api: string;
  /** admin@example.com (user 1, holds ADMIN). */
  adminToken: string;
  /** user@example.com (user 2, USER only). */
  userToken: string;
}

export interface CallOptions {
  /** Bearer token; the admin's by default, `null` for none. */
  token?: string | null;
  json?: unknown;
  headers?: Record<string, string>;
}

/** The steps from PENDING to each status, through allowed transitions only. */
const PATH_TO: Record<OrderStatus, OrderStatus[]> = {
  PENDING: [],
  PAID: ['PAID'],
  SHIPPED: ['PAID', 'SHIPPED'],
  DELIVERED: ['PAID', 'SHIPPED', 'DELIVERED'],
  CANCELLED: ['CANCELLED'],
};

/**
 * Builds the state a test row needs through the API itself (fresh users and orders, so rows
 * that change things never share them), failing loudly when a setup step is refused.
 *
 * @example
 * const fx = new Fixtures(server);
 * const user = await fx.newUser();
 * const order = await fx.newOrder(user.id, 'SHIPPED');
 */
export class Fixtures {
  #sequence = 0;

  constructor(readonly server: ServerHandle) {}

  /** A request below the API base as the admin (or `token`), any status. */
  call(method: string, path: string, options: CallOptions = {}): Promise<Observed> {
    const token = options.token === undefined ? this.server.adminToken : options.token;
    const headers: Record<string, string> = { ...options.headers };
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    if (options.json !== undefined) headers['Content-Type'] ??= 'application/json';
    return exchange({
      method,
      url: this.server.api + path,
      headers,
      ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
    });
  }

  /** Like {@link call}, but a setup step: anything but `status` throws. */
  async expect(
    status: number,
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<Observed> {
    const res = await this.call(method, path, options);
    if (res.status !== status) {
      throw new Error(`setup ${method} ${path}: expected ${status}, got ${describeResponse(res)}`);
    }
    return res;
  }

  /** An email no other user of this server has. */
  uniqueEmail(tag = 'row'): string {
    return `${tag}.${process.pid}.${++this.#sequence}.${Date.now().toString(36)}@example.com`;
  }

  /** An id far above any the server hands out, so it stays absent: 404 material. */
  absentId(): number {
    return 8_000_000_000_000 + ++this.#sequence;
  }

  /** A fresh absent id for PUT-create (moves the user counter up to it, never near absentId). */
  createId(): number {
    return 5_000_000 + Math.floor(Math.random() * 1_000_000) * 100 + ++this.#sequence;
  }

  async newUser(fields: { name?: string; email?: string; age?: number } = {}): Promise<UserDto> {
    const res = await this.expect(201, 'POST', '/users', {
      json: { name: 'Row User', email: this.uniqueEmail(), ...fields },
    });
    return res.json<UserDto>();
  }

  async newOrder(userId: number, status: OrderStatus = 'PENDING'): Promise<Order> {
    const created = await this.expect(201, 'POST', `/users/${userId}/orders`, {
      json: {
        product: 'Row product',
        categoryId: 1,
        items: [{ product: 'Row item', quantity: 2 }],
      },
    });
    let order = created.json<Order>();
    for (const next of PATH_TO[status]) {
      const res = await this.expect(200, 'PATCH', `/users/${userId}/orders/${order.id}`, {
        json: { status: next },
      });
      order = res.json<Order>();
    }
    return order;
  }

  /** A fresh user and a fresh order of theirs in `status`, as path variables. */
  async userWithOrder(
    status: OrderStatus = 'PENDING',
  ): Promise<{ userId: number; orderId: number }> {
    const user = await this.newUser();
    const order = await this.newOrder(user.id, status);
    return { userId: user.id, orderId: order.id };
  }

  async block(userId: number): Promise<void> {
    await this.expect(200, 'POST', `/admin/users/${userId}/block`);
  }

  async unblock(userId: number): Promise<void> {
    await this.expect(200, 'POST', `/admin/users/${userId}/unblock`);
  }

  async activate(userId: number): Promise<void> {
    await this.expect(200, 'POST', `/users/${userId}/activate`);
  }

  /** The ETag a GET of `path` answers now. */
  async etagOf(path: string): Promise<string> {
    const res = await this.expect(200, 'GET', path);
    const etag = res.headers.get('etag');
    if (etag === null) throw new Error(`setup GET ${path}: no ETag`);
    return etag;
  }

  /** A fresh token pair of user@example.com (a new refresh-token family). */
  async loginAsUser(): Promise<TokenPair> {
    const res = await this.expect(200, 'POST', '/auth/login', {
      token: null,
      json: { username: 'user@example.com', password: TEST_USER_PASSWORD },
    });
    return res.json<TokenPair>();
  }
}
