import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../../spec/operations.js';
import type { Exchange } from '../http/target-client.js';
import { grewByOne } from './created-once.js';
import { InFlightWrites } from './in-flight-writes.js';
import { deletedVerdict, sentMembersDiffering, storedVerdict } from './read-back-verdict.js';

const ORDER = {
  type: 'object',
  properties: {
    id: { type: 'integer', readOnly: true },
    product: { type: 'string' },
    secret: { type: 'string', writeOnly: true },
    updatedAt: { type: 'string', format: 'date-time', readOnly: true },
  },
};

function operation(method: SpecOperation['method'], status: string): SpecOperation {
  const json = { 'application/json': { schema: ORDER } };
  return {
    operationId: `${method}Thing`,
    method,
    path: '/things/{id}',
    requestBody: method === 'get' ? undefined : { content: json },
    responses: { [status]: { description: '', content: json } },
  } as unknown as SpecOperation;
}

function exchange(status: number, body: unknown, url = 'http://t/things/1'): Exchange {
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    request: { method: 'PUT', url, headers: { 'Content-Type': 'application/json' } },
    response: { status, headers: {}, body: text, durationMs: 1 },
    headers: new Headers(),
  } as Exchange;
}

const reader = operation('get', '200');
const put = operation('put', '200');
const stored = { id: 1, product: 'pen', updatedAt: '2026-01-01T00:00:00Z' };

describe('a write read back', () => {
  it('passes when the read shows the representation the write answered', () => {
    const verdict = storedVerdict(
      put,
      exchange(200, stored),
      { product: 'pen' },
      reader,
      exchange(200, stored),
    );
    expect(verdict).toBeUndefined();
  });

  it('fails when the read differs from the answer, naming the members', () => {
    const read = { ...stored, product: 'pe' };
    const verdict = storedVerdict(
      put,
      exchange(200, stored),
      { product: 'pen' },
      reader,
      exchange(200, read),
    );
    expect(verdict?.message).toContain('differ in product');
  });

  it('fails when the resource written is not there', () => {
    const verdict = storedVerdict(put, exchange(200, stored), {}, reader, exchange(404, undefined));
    expect(verdict?.message).toContain('not there');
  });

  it('without a representation, compares the members sent, not readOnly or writeOnly ones', () => {
    const sent = { product: 'pen', secret: 's', id: 9, unknown: 1 };
    const read = exchange(200, { ...stored, product: 'pencil' });
    expect(sentMembersDiffering(put, reader, sent, { ...stored, product: 'pencil' }, read)).toEqual(
      ['product sent "pen", read "pencil"'],
    );
    expect(sentMembersDiffering(put, reader, { product: 'pen', id: 9 }, stored, read)).toEqual([]);
  });

  it('reads a merge-patch null as a removal', () => {
    const patch = exchange(204, undefined);
    patch.request.headers['Content-Type'] = 'application/merge-patch+json';
    expect(sentMembersDiffering(put, reader, { product: null }, { id: 1 }, patch)).toEqual([]);
    expect(sentMembersDiffering(put, reader, { product: null }, stored, patch)).toHaveLength(1);
  });

  it('wants a deleted resource gone, and takes a refusal as no verdict', () => {
    expect(deletedVerdict(exchange(200, stored))).toBeDefined();
    expect(deletedVerdict(exchange(404, undefined))).toBeUndefined();
    expect(deletedVerdict(exchange(401, undefined))).toBeUndefined();
  });
});

describe('writes in flight', () => {
  it('judges a write alone only when every write overlapping it was refused', () => {
    const writes = new InFlightWrites();
    const a = writes.begin();
    const b = writes.begin();
    expect(writes.alone(a)).toBe(false);
    b.status = 409;
    writes.end(b);
    expect(writes.alone(a)).toBe(true);
    const c = writes.begin();
    c.status = 200;
    writes.end(c);
    expect(writes.alone(a)).toBe(false);
    const later = writes.begin();
    writes.end(a);
    expect(writes.alone(later)).toBe(false);
    writes.end(later);
    expect(writes.alone(writes.begin())).toBe(true);
  });
});

describe('a collection after a creation', () => {
  const read = (items: string[]) => ({ exchange: exchange(200, items), items });

  it('grew by exactly one', () => {
    expect(grewByOne(read(['a']), read(['a', 'b']))).toBeUndefined();
    expect(grewByOne(read(['a']), read(['a', 'b', 'c']))?.message).toContain('by 2 item(s)');
    expect(grewByOne(read(['a']), read(['a']))).toBeDefined();
  });
});
