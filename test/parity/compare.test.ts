import { describe, expect, it } from 'vitest';
import { compareTranscripts } from './compare.js';
import type { Exchange, Transcript } from './run-scenarios.js';

const runStart = Date.parse('2026-11-21T10:00:00.000Z');

function answer(body: unknown, headers: Record<string, string> = {}, sent = {}): Exchange {
  return {
    label: '#1 GET /api/v1/users/1',
    method: 'GET',
    path: '/api/v1/users/1',
    sentHeaders: sent,
    status: 200,
    headers: new Headers({ 'Content-Type': 'application/json', ...headers }),
    text: JSON.stringify(body),
    unresolved: [],
  };
}
const transcript = (exchange: Exchange): Transcript => ({ scenario: 's', exchanges: [exchange] });
const fields = (a: Exchange, b: Exchange) =>
  compareTranscripts(transcript(a), transcript(b), runStart).map((d) => d.field);

describe('the parity comparison hides only what legitimately differs between two runs', () => {
  it('normalizes run-time timestamps, generated request ids and tag values', () => {
    const a = answer(
      { id: 1, updatedAt: '2026-11-21T10:00:01.000Z', requestId: crypto.randomUUID() },
      { ETag: '"abc"', 'X-Request-Id': crypto.randomUUID(), 'Last-Modified': 'x' },
    );
    const b = answer(
      { id: 1, updatedAt: '2026-11-21T10:00:05.123Z', requestId: crypto.randomUUID() },
      { ETag: '"def"', 'X-Request-Id': crypto.randomUUID(), 'Last-Modified': 'x' },
    );
    expect(fields(a, b)).toEqual([]);
  });

  it('compares ids, seed timestamps, echoed request ids and the ETag kind exactly', () => {
    expect(fields(answer({ id: 1 }), answer({ id: 2 }))).toEqual(['body/id']);
    expect(
      fields(
        answer({ createdAt: '2026-01-15T09:30:00.000Z' }),
        answer({ createdAt: '2026-01-15T09:30:01.000Z' }),
      ),
    ).toEqual(['body/createdAt']);
    const sent = { 'X-Request-Id': 'mine' };
    expect(
      fields(
        answer({ requestId: 'mine' }, { 'X-Request-Id': 'mine' }, sent),
        answer({ requestId: crypto.randomUUID() }, { 'X-Request-Id': 'mine' }, sent),
      ),
    ).toEqual(['body/requestId']);
    expect(fields(answer({}, { ETag: '"a"' }), answer({}, { ETag: 'W/"a"' }))).toEqual([
      'header etag',
    ]);
    expect(
      fields(
        answer({}, { Link: '<http://h:1/api/v1/users?page=1>; rel="next"' }),
        answer({}, { Link: '</api/v1/users?page=1>; rel="next"' }),
      ),
    ).toEqual([]);
  });
});
