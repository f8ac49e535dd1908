import type { OrderItemRecord, OrderRecord, RoleName, UserRecord } from '../domain/dataset.js';
import type { DataSetProblem } from './data-set-format.js';
import type { DataSetValidators } from './data-set-validators.js';

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

/** Adds one problem: where in the file (a JSON pointer) and what is wrong. */
export type Report = (pointer: string, message: string) => void;

/** What the checks of one collection share within one `checkDataSet` call. */
export interface DataSetRun {
  validators: DataSetValidators;
  /** Every problem so far, in the order found. */
  problems: DataSetProblem[];
  problem: Report;
  nowIso: string;
  /** The records that passed, pushed in file order. */
  data: CheckedDataSet;
}
