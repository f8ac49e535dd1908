import { describe, expect, it } from 'vitest';
import { explainAsSerialHistory, type FieldWrite } from './serial-history.js';

type Field = 'name' | 'age';
const initial = { name: 'a0', age: 0 };
const write = (field: Field, value: string | number, name: string, age: number) =>
  ({ field, value, after: { name, age } }) satisfies FieldWrite<Field>;

describe('explainAsSerialHistory', () => {
  it('orders writes whose answers chain, whatever order they are listed in', () => {
    // Serial: name=a1, age=1, name=a2, name=a3, age=2.
    const writes = [
      write('age', 2, 'a3', 2),
      write('name', 'a3', 'a3', 1),
      write('name', 'a1', 'a1', 0),
      write('name', 'a2', 'a2', 1),
      write('age', 1, 'a1', 1),
    ];
    const order = explainAsSerialHistory(initial, writes, { name: 'a3', age: 2 });
    expect(order.map((w) => w.value)).toEqual(['a1', 1, 'a2', 'a3', 2]);
  });

  it('accepts unobserved same-field writes in either order', () => {
    const writes = [write('name', 'a1', 'a1', 0), write('name', 'a2', 'a2', 0)];
    expect(explainAsSerialHistory(initial, writes, { name: 'a2', age: 0 })).toHaveLength(2);
    expect(explainAsSerialHistory(initial, writes, { name: 'a1', age: 0 })).toHaveLength(2);
  });

  it('refuses a lost update: a final state that drops an acknowledged write', () => {
    // Both answered, but the age write was overwritten by a stale copy when the name was saved.
    const writes = [write('age', 1, 'a0', 1), write('name', 'a1', 'a1', 0)];
    expect(() => explainAsSerialHistory(initial, writes, { name: 'a1', age: 0 })).toThrow(
      /no write explains|unexplained/,
    );
  });

  it('refuses a final state that is no answer, and an answer without its own write', () => {
    expect(() =>
      explainAsSerialHistory(initial, [write('name', 'a1', 'a1', 0)], { name: 'a0', age: 0 }),
    ).toThrow(/a write was lost/);
    expect(() => explainAsSerialHistory(initial, [write('name', 'a1', 'a0', 0)], initial)).toThrow(
      /shows/,
    );
  });
});
