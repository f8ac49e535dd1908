import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { entityTags } from './conditional-request.js';
import { dataSetDateKept } from './data-set-date-kept.js';
import { lastModifiedFromBody } from './last-modified-from-body.js';
import { notModifiedEtag } from './not-modified-etag.js';
import { notModifiedWhenMatched } from './not-modified-when-matched.js';

/** A context whose description declares `http` in x-apikit-http and a reset operation. */
function context(http: object = { lastModifiedProperty: 'changed', dataSetDated: ['getEntry'] }) {
  return {
    spec: { 'x-apikit-http': http, 'x-apikit-service': { reset: 'resetAll' } },
  } as unknown as RunContext;
}

function exchange(
  answer: { status: number; headers?: Record<string, string>; body?: unknown },
  request: { method?: string; headers?: Record<string, string> } = {},
): Exchange {
  const headers = answer.headers ?? {};
  return {
    request: {
      method: request.method ?? 'GET',
      url: 'http://t/things/1',
      headers: request.headers ?? {},
    },
    response: {
      status: answer.status,
      headers,
      body: answer.body === undefined ? '' : JSON.stringify(answer.body),
      durationMs: 1,
    },
    headers: new Headers(headers),
  };
}

const op = (operationId = 'getThing') => ({ operationId, method: 'get' }) as SpecOperation;
const dated = (lastModified: string, body?: unknown, status = 200) =>
  exchange({ status, headers: { 'last-modified': lastModified }, body });

describe('last_modified_from_body', () => {
  const judge = (e: Exchange, ctx = context()) => lastModifiedFromBody.check(e, op(), ctx);
  const changed = '2026-02-03T11:05:00.789Z';

  it('passes a Last-Modified that is the declared property cut to the second', () => {
    expect(judge(dated('Tue, 03 Feb 2026 11:05:00 GMT', { id: 1, changed }))).toEqual([]);
  });

  it('fails one an hour early, or a second late, of a plain representation', () => {
    expect(judge(dated('Tue, 03 Feb 2026 10:05:00 GMT', { changed }))).toHaveLength(1);
    expect(judge(dated('Tue, 03 Feb 2026 11:05:01 GMT', { changed }))).toHaveLength(1);
  });

  it('dates a representation embedding parts by the newest of them: never older', () => {
    const later = { changed, owner: { id: 2 }, lines: [{ changed: '2026-02-03T12:00:00.000Z' }] };
    expect(judge(dated('Tue, 03 Feb 2026 12:00:00 GMT', later))).toEqual([]);
    expect(judge(dated('Tue, 03 Feb 2026 13:00:00 GMT', later))).toEqual([]);
    expect(judge(dated('Tue, 03 Feb 2026 11:05:00 GMT', later))).toHaveLength(1);
  });

  it('judges nothing undeclared, without a body or date, or of a data set dated GET', () => {
    const wrong = dated('Tue, 03 Feb 2026 10:05:00 GMT', { changed });
    expect(judge(wrong, context({}))).toEqual([]);
    expect(judge(dated('Tue, 03 Feb 2026 10:05:00 GMT'))).toEqual([]);
    expect(judge(dated('Tue, 03 Feb 2026 10:05:00 GMT', { other: changed }))).toEqual([]);
    expect(judge(exchange({ status: 200, body: { changed } }))).toEqual([]);
    expect(lastModifiedFromBody.check(wrong, op('getEntry'), context())).toEqual([]);
  });
});

describe('data_set_date_kept', () => {
  const entry = op('getEntry');
  const first = 'Tue, 03 Feb 2026 11:00:00 GMT';

  it('holds every answer of a run to the date it first read', () => {
    const ctx = context();
    expect(dataSetDateKept.check(dated(first), entry, ctx)).toEqual([]);
    expect(dataSetDateKept.check(dated(first), entry, ctx)).toEqual([]);
    expect(dataSetDateKept.check(dated('Tue, 03 Feb 2026 10:00:00 GMT'), entry, ctx)).toHaveLength(
      1,
    );
    expect(dataSetDateKept.check(dated(first), entry, context())).toEqual([]);
  });

  it('reads a new date after a reset answered with success', () => {
    const ctx = context();
    dataSetDateKept.check(dated(first), entry, ctx);
    dataSetDateKept.check(exchange({ status: 204 }, { method: 'POST' }), op('resetAll'), ctx);
    expect(dataSetDateKept.check(dated('Tue, 03 Feb 2026 12:00:00 GMT'), entry, ctx)).toEqual([]);
  });

  it('leaves alone the operations the description does not date by the data set', () => {
    const ctx = context();
    dataSetDateKept.check(dated(first), entry, ctx);
    expect(dataSetDateKept.check(dated('Tue, 03 Feb 2026 10:00:00 GMT'), op(), ctx)).toEqual([]);
  });
});

describe('the 304 checks', () => {
  const notModified = (etag: string, request: Record<string, string>, method = 'GET') =>
    exchange({ status: 304, headers: { etag } }, { method, headers: request });

  it('reads the tags of If-None-Match', () => {
    expect(entityTags('"a", W/"b"')).toEqual(['"a"', 'W/"b"']);
    expect(entityTags(' * ')).toBe('*');
    expect(entityTags('a')).toEqual([]);
  });

  it('not_modified_etag: the ETag is one the request sent (weakly), or any with *', () => {
    const judge = (e: Exchange) => notModifiedEtag.check(e, op(), context());
    expect(judge(notModified('"b"', { 'If-None-Match': '"a", W/"b"' }))).toEqual([]);
    expect(judge(notModified('W/"a"', { 'if-none-match': '"a"' }))).toEqual([]);
    expect(judge(notModified('"c"', { 'if-none-match': '*' }))).toEqual([]);
    expect(judge(notModified('"c"', { 'if-none-match': '"a", "b"' }))).toHaveLength(1);
    expect(judge(notModified('"c"', {}))).toEqual([]);
  });

  it('not_modified_when_matched: only a conditional GET or HEAD whose date is not before', () => {
    const judge = (e: Exchange) => notModifiedWhenMatched.check(e, op(), context());
    const since = { 'if-modified-since': 'Tue, 03 Feb 2026 11:00:00 GMT' };
    expect(judge(notModified('"a"', { 'if-none-match': '"a"' }, 'HEAD'))).toEqual([]);
    expect(judge(notModified('"a"', since))).toEqual([]);
    expect(judge(notModified('"a"', {}))).toHaveLength(1);
    expect(judge(notModified('"a"', {}, 'HEAD'))).toHaveLength(1);
    expect(judge(notModified('"a"', { 'if-modified-since': 'yesterday' }))).toHaveLength(1);
    expect(judge(notModified('"a"', { 'if-none-match': '"a"' }, 'POST'))).toHaveLength(1);
    const newer = exchange(
      { status: 304, headers: { 'last-modified': 'Tue, 03 Feb 2026 11:00:01 GMT' } },
      { headers: since },
    );
    expect(judge(newer)).toHaveLength(1);
    expect(judge(dated('Tue, 03 Feb 2026 11:00:01 GMT'))).toEqual([]);
  });
});
