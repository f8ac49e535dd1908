import { describe, expect, it } from 'vitest';
import { failureFingerprint, normalizeRule } from './failure-fingerprint.js';

/**
 * Texts of real failures (the fault-injection targets under seeds 4711 and 99): the two runs
 * of one failure must give one rule, and two different failures must not.
 */
describe('normalizeRule', () => {
  it.each([
    [
      'a body the target sent back',
      '200 with {"id":6325,"name":"Grace Hopper","email":"conform-51cf63efmx0tjgfd-383@example.com","age":45}',
      '200 with {"id":6403,"name":"Grace Hopper","email":"conform-405d4e39mx0tjh19-381@example.com","age":45}',
      '200 with {…}',
    ],
    [
      'an entity tag',
      '412 for If-None-Match: * (current ETag "22qpdclvo3b140z99pul2c")',
      '412 for If-None-Match: * (current ETag "ekizw5p5ys1o5ugwycgx3")',
      '412 for If-None-Match: * (current ETag "…")',
    ],
    [
      'an HTTP date',
      '304 for If-Modified-Since: Sat, 28 Nov 2026 18:43:35 GMT',
      '304 for If-Modified-Since: Sun, 29 Nov 2026 07:03:01 GMT',
      '304 for If-Modified-Since: <date>',
    ],
    [
      'an id in a path',
      'a new request carried out (2xx, Location other than /api/v1/users/4131)',
      'a new request carried out (2xx, Location other than /api/v1/users/404)',
      'a new request carried out (2xx, Location other than /api/v1/users/#)',
    ],
    [
      'a URL with its port',
      'GET http://127.0.0.1:45569/api/v1/users/916 -> 200; etag: (none)',
      'GET http://127.0.0.1:38211/api/v1/users/933 -> 200; etag: (none)',
      'GET <url> -> 200; etag: (none)',
    ],
    [
      'a request id made of the seed',
      'X-Request-Id: apikit-conform-4711-250292242',
      'X-Request-Id: apikit-conform-99-308348611',
      'X-Request-Id: apikit-conform-#-#',
    ],
    ['generated values', 'name: "Ha", age: 22', 'name: "He", age: 24', 'name: "…", age: #'],
    [
      'an ISO timestamp and a UUID',
      'createdAt 2026-11-28T19:43:26.788Z of 0b6c8a3e-1f2d-4c5b-9a8e-7d6c5b4a3f21',
      'createdAt 2026-11-29T01:02:03Z of 9f1e2d3c-4b5a-4968-8776-655443322110',
      'createdAt <date> of <uuid>',
    ],
    [
      'an email outside quotes',
      'no user conform-51cf63efmx0tjgfd-383@example.com after the DELETE',
      'no user conform-405d4e39mx0tjh19-381@example.com after the DELETE',
      'no user <email> after the DELETE',
    ],
    [
      'counts and indexes',
      '8 of 10 valid request(s) rejected as invalid (400×8)',
      '3 of 10 valid request(s) rejected as invalid (400×3)',
      '# of # valid request(s) rejected as invalid (400×#)',
    ],
  ])('blanks %s', (_what, first, second, rule) => {
    expect(normalizeRule(first)).toBe(rule);
    expect(normalizeRule(second)).toBe(rule);
  });

  it.each([
    ['statuses', '404', '404'],
    ['a status before words', '412 for If-Match: x', '412 for If-Match: x'],
    [
      'a status range and versions',
      'a documented 2xx under /api/v1, HS256',
      'a documented 2xx under /api/v1, HS256',
    ],
    ['an RFC section', 'refused (RFC 9110 13.1.2)', 'refused (RFC 9110 13.1.2)'],
    [
      'a status list',
      'a success or a business answer (404, 409, 422 unknown reference)',
      'a success or a business answer (404, 409, 422 unknown reference)',
    ],
    ['a decimal is no status', 'took 1.500 s', 'took #.# s'],
    ['a number out of the status range', 'at most 600 items', 'at most # items'],
    ['a status after an arrow', 'GET <url> -> 200; etag: (none)', 'GET <url> -> 200; etag: (none)'],
    ['a value the run chose, in status range', 'name: "Ha", age: 122', 'name: "…", age: #'],
    ['an id compared', 'id > 250', 'id > #'],
    [
      'an id in words',
      'an id greater than 301 (no id is reused)',
      'an id greater than # (no id is reused)',
    ],
    [
      'a quoted URL and pattern',
      'header Location: "http://localhost/api/v1/users/6483" must match pattern "^/api/v1/users/[1-9][0-9]*$"',
      'header Location: "…" must match pattern "…"',
    ],
    [
      'a URL before a parenthesis',
      'Link to http://127.0.0.1:4000/api/v1/users?page=2)',
      'Link to <url>)',
    ],
    ['whitespace and line ends', '  404\n  (x-apikit-references) ', '404 (x-apikit-references)'],
  ])('keeps the words of a rule: %s', (_what, text, rule) => {
    expect(normalizeRule(text)).toBe(rule);
  });

  it('tells different rules of one check apart', () => {
    const rules = [
      '403 (authorization is judged before accept)',
      '405 (method is judged before authentication)',
      '412 (preconditions is judged before body)',
    ].map(normalizeRule);
    expect(new Set(rules).size).toBe(3);
  });

  it('leaves a rule as it is, and cuts long texts to 200 characters', () => {
    const long = `expected ${'very long words '.repeat(40)}`;
    for (const text of [long, '200 with {"id":1}', 'X-Request-Id: apikit-conform-4711-1']) {
      const once = normalizeRule(text);
      expect(normalizeRule(once)).toBe(once);
    }
    expect(normalizeRule(long)).toHaveLength(200);
    expect(normalizeRule(long).endsWith('…')).toBe(true);
  });
});

describe('failureFingerprint', () => {
  it('is check, operation and the expected rule', () => {
    expect(
      failureFingerprint({
        check: 'use_after_free',
        operationId: 'getUser',
        message: 'GET after DELETE answered 200',
        expected: '404',
      }),
    ).toEqual({ check: 'use_after_free', operationId: 'getUser', rule: '404' });
  });

  it('takes the message when the failure has no expected', () => {
    expect(
      failureFingerprint({
        check: 'status_code_conformance',
        operationId: 'createUser',
        message: '200 is not documented for createUser (documented: 201, 400, 409)',
      }).rule,
    ).toBe('200 is not documented for createUser (documented: 201, 400, 409)');
  });

  it('is one entry for a missing operation, whatever the check says of it', () => {
    const missing = (path: string) =>
      failureFingerprint({
        check: 'operation_implemented',
        operationId: 'cancelOrder',
        message: `POST ${path} answered 404`,
        expected: 'the operation implemented (a documented status)',
      });
    expect(missing('/users/12/orders/7/cancel')).toEqual(missing('/users/3/orders/1/cancel'));
  });
});
