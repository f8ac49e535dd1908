import type { OrderStatus, RoleName, UserStatus } from '../domain/dataset.js';

/**
 * A data set of your own, as `apikit serve --data FILE` and `createMockApi({ data })` take it
 * (docs/data-format.md): flat collections related by id, as json-server users write them.
 * Only what a record is about is required; bookkeeping fields have defaults. The role and
 * category catalogs are fixed by the contract and are not part of the file.
 *
 * @example
 * const data: DataSetFile = {
 *   users: [{ id: 1, name: 'Ada', email: 'ada@example.com', roles: ['ADMIN'], password: 'pw' }],
 *   orders: [{ id: 1, userId: 1, product: 'Clean Code', categoryId: 1 }],
 *   items: [{ id: 1, orderId: 1, product: 'Clean Code', quantity: 1 }],
 * };
 */
/**
 * A name of the contract's enum, or any string: a JSON file imported in TypeScript types its
 * strings as `string`, and every value is checked at run time anyway (with a clear problem).
 */
type Named<T extends string> = T | (string & {});

export interface DataSetFile {
  users: UserData[];
  orders?: OrderData[];
  items?: ItemData[];
}

export interface UserData {
  id: number;
  name: string;
  email: string;
  /** Default null (unknown). */
  age?: number | null;
  /** Default ACTIVE. */
  status?: Named<UserStatus>;
  /** Names from the role catalog; USER is always held (listing it is optional). Default ['USER']. */
  roles?: Named<RoleName>[];
  /** A login password (stored hashed); without one the user cannot log in. */
  password?: string;
  /** Default: the time the data set is loaded. */
  createdAt?: string;
  /** Default: createdAt. */
  updatedAt?: string;
}

export interface OrderData {
  id: number;
  userId: number;
  product: string;
  /** An id of the category catalog (1 Books, 2 Electronics, 3 Clothing, 4 Home & Garden, 5 Toys). */
  categoryId: number;
  /** Default PENDING. */
  status?: Named<OrderStatus>;
  createdAt?: string;
  updatedAt?: string;
}

export interface ItemData {
  id: number;
  orderId: number;
  product: string;
  quantity: number;
}

/** One thing wrong with a data set: where (a JSON Pointer into it) and what. */
export interface DataSetProblem {
  pointer: string;
  message: string;
}

/** A data set refused: every problem found, not just the first. */
export class InvalidDataSetError extends Error {
  override name = 'InvalidDataSetError';
  constructor(
    readonly problems: DataSetProblem[],
    readonly source = 'the data set',
  ) {
    super(
      `${source} is not a valid data set (${problems.length} problem${problems.length === 1 ? '' : 's'}; format: docs/data-format.md):\n` +
        problems.map((p) => `  ${p.pointer || '/'}: ${p.message}`).join('\n'),
    );
  }
}
