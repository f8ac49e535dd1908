import type { OpenApiDocument } from '../../spec/load-spec.js';
import type { CheckedDataSet, DataSetRun } from './checked-data-set.js';
import { checkItems } from './check-items.js';
import { checkOrders } from './check-orders.js';
import { checkUsers } from './check-users.js';
import type { DataSetFile, DataSetProblem } from './data-set-format.js';
import { dataSetValidators } from './data-set-validators.js';
import { escape, isObject, kind } from './record-checks.js';

export type { CheckedDataSet } from './checked-data-set.js';

export type DataSetCheck =
  { ok: true; data: CheckedDataSet } | { ok: false; problems: DataSetProblem[] };

const COLLECTIONS = ['users', 'orders', 'items'] as const;

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
  const problems: DataSetProblem[] = [];
  const run: DataSetRun = {
    validators: dataSetValidators(spec),
    problems,
    problem: (pointer, message) => problems.push({ pointer, message }),
    nowIso: now.toISOString(),
    data: { users: [], orders: [], items: [] },
  };
  const { problem } = run;

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

  checkUsers(run, rawUsers, Array.isArray(input.users));
  checkOrders(run, rawOrders, rawUsers, rawItems);
  checkItems(run, rawItems, rawOrders);

  return problems.length > 0 ? { ok: false, problems } : { ok: true, data: run.data };
}

/** The documented format as a type, for callers that build a data set in code. */
export type { DataSetFile };
