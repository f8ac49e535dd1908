import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../core/domain/dataset.js';
import { emptyDataset } from '../../core/store/empty-dataset.js';
import { checkFileInvariants, CrashModel, type CrashOp } from './crash-model.js';

/*
 * The crash test's judge, judged: on hand-made files it accepts every whole outcome of a cut
 * write and names every half-applied, lost or invented one.
 */

const T = '2025-01-01T00:00:00.000Z';

/** A file holding user 1 (Ada) with order 10 (two items), as the model expects it. */
function file(): Dataset {
  const data = emptyDataset();
  data.users['1'] = {
    id: 1,
    name: 'Ada',
    email: 'ada@x.test',
    age: 30,
    status: 'INACTIVE',
    createdAt: T,
    updatedAt: T,
    roleIds: [1],
    passwordHash: null,
  };
  data.orders['10'] = {
    id: 10,
    userId: 1,
    product: 'o',
    categoryId: 1,
    status: 'PENDING',
    createdAt: T,
    updatedAt: T,
  };
  data.orderItems['100'] = { id: 100, orderId: 10, product: 'a', quantity: 1 };
  data.orderItems['101'] = { id: 101, orderId: 10, product: 'b', quantity: 2 };
  data.counters = { users: 1, orders: 10, orderItems: 101 };
  return data;
}

function model(): CrashModel {
  const m = new CrashModel();
  m.apply({ kind: 'create', name: 'Ada', email: 'ada@x.test', age: 30 }, 1);
  m.apply({ kind: 'order', userId: 1, product: 'o', items: ['ax1', 'bx2'] }, 10);
  return m;
}

const none = new Set<number>();
const judge = (data: Dataset, cut: CrashOp[] = []) => model().reconcile(data, cut, none);

describe('CrashModel.reconcile', () => {
  it('accepts the file as acknowledged', () => {
    expect(judge(file())).toEqual({ problems: [], adopted: { users: [], orders: [] }, applied: 0 });
    expect(checkFileInvariants(file(), emptyDataset())).toEqual([]);
  });

  it('accepts a cut PUT absent or whole, and names one half-applied', () => {
    const put: CrashOp = { kind: 'replace', userId: 1, name: 'Bo', email: 'bo@x.test', age: 40 };
    expect(judge(file(), [put]).problems).toEqual([]);
    const whole = file();
    Object.assign(whole.users['1']!, { name: 'Bo', email: 'bo@x.test', age: 40 });
    expect(judge(whole, [put])).toMatchObject({ problems: [], applied: 1 });
    const half = file();
    Object.assign(half.users['1']!, { name: 'Bo' });
    expect(judge(half, [put]).problems).toEqual([expect.stringMatching(/^user 1 is .*neither/)]);
  });

  it('accepts a cut order absent or whole, and names one missing an item', () => {
    const order: CrashOp = { kind: 'order', userId: 1, product: 'p', items: ['cx1', 'dx1'] };
    const whole = file();
    whole.orders['11'] = { ...whole.orders['10']!, id: 11, product: 'p' };
    whole.orderItems['102'] = { id: 102, orderId: 11, product: 'c', quantity: 1 };
    whole.orderItems['103'] = { id: 103, orderId: 11, product: 'd', quantity: 1 };
    expect(judge(whole, [order])).toMatchObject({ problems: [], adopted: { orders: [11] } });
    delete whole.orderItems['103'];
    expect(judge(whole, [order]).problems).toEqual([
      expect.stringMatching(/^order 11 .*half-applied/),
    ]);
  });

  it('accepts a cut delete whole, and names orders left behind', () => {
    const del: CrashOp = { kind: 'delete', userId: 1 };
    const whole = file();
    whole.users = {};
    whole.orders = {};
    whole.orderItems = {};
    expect(judge(whole, [del])).toMatchObject({ problems: [], applied: 1 });
    const half = file();
    delete half.users['1'];
    expect(judge(half, [del]).problems).toEqual(['user 1 deleted but 1 orders left']);
    expect(checkFileInvariants(half, emptyDataset())).toEqual(['order 10 has no user 1']);
  });

  it('names an acknowledged write lost, an acknowledged order changed, an invented user', () => {
    const lost = file();
    delete lost.users['1'];
    expect(judge(lost).problems).toContain('user 1 lost from the file');
    const changed = file();
    changed.orderItems['101']!.quantity = 3;
    expect(judge(changed).problems).toEqual([expect.stringMatching(/^order 10 changed/)]);
    const invented = file();
    invented.users['2'] = { ...invented.users['1']!, id: 2, email: 'eve@x.test' };
    expect(judge(invented).problems).toEqual(['user 2 in the file was never written']);
  });

  it('adopts a cut create found whole, and names it half-applied or doubled', () => {
    const create: CrashOp = { kind: 'create', name: 'Cy', email: 'cy@x.test', age: 20 };
    const whole = file();
    whole.users['2'] = { ...whole.users['1']!, id: 2, name: 'Cy', email: 'cy@x.test', age: 20 };
    expect(judge(whole, [create])).toMatchObject({ problems: [], adopted: { users: [2] } });
    whole.users['2']!.age = null;
    expect(judge(whole, [create]).problems).toEqual(['cut create cy@x.test is half-applied']);
  });

  it('checkFileInvariants names orphan items, low counters and a changed seed', () => {
    const data = file();
    data.orderItems['200'] = { id: 200, orderId: 99, product: 'z', quantity: 1 };
    data.counters.orderItems = 101;
    const seed = file();
    seed.users['1']!.name = 'Seeded';
    expect(checkFileInvariants(data, seed)).toEqual([
      'item 200 has no order 99',
      'item counter below an id',
      'seed users 1 changed',
    ]);
  });
});
