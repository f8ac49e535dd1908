import type { ConformanceReport } from '../../../conformance/report.js';

/** Markup and control characters a hostile or broken target could put into a report. */
export const TRICKY_TEXT =
  `quote " apos ' lt < gt > amp & ]]> ` +
  `<script>alert(1)</script><img src="https://evil.example/x.png" onerror="alert(2)"> ` +
  `nul \u0000 bell \u0007 esc \u001b[31mred\u001b[0m vt \u000b ff \u000c cr \r del \u007f csi \u009b ` +
  `unicode: naïve 日本語 😀 lone \ud800 end`;

/**
 * A hand-built report for the reporters' tests: two passes, three failures in two checks (one
 * full of TRICKY_TEXT), a skip repeated over two operations and a run-wide skip, and a
 * coverage row with an undocumented status.
 */
export function trickyReport(): ConformanceReport {
  const request = {
    method: 'POST',
    url: 'http://127.0.0.1:3000/api/v1/users',
    headers: { 'Content-Type': 'application/json', 'X-Tricky': TRICKY_TEXT },
    body: JSON.stringify({ name: TRICKY_TEXT }),
  };
  return {
    summary: {
      target: 'http://127.0.0.1:3000/api/v1',
      specTitle: 'User/Order <API> & "friends"',
      specVersion: '1.0.0',
      seed: 4242,
      startedAt: '2025-01-02T03:04:05.678Z',
      durationMs: 12_345,
      requests: 321,
      checks: ['not_a_server_error', 'ignored_auth', 'use_after_free'],
      results: { total: 8, passed: 2, failed: 3, skipped: 3 },
      failuresByCheck: { not_a_server_error: 2, response_schema_conformance: 1 },
    },
    results: [
      {
        check: 'not_a_server_error',
        operationId: 'listUsers',
        method: 'GET',
        path: '/users',
        status: 'passed',
        message: '12 response(s) conformed',
      },
      {
        check: 'not_a_server_error',
        operationId: 'createUser',
        method: 'POST',
        path: '/users',
        status: 'failed',
        message: `the server answered 500: ${TRICKY_TEXT}`,
        expected: 'a status below 500',
        actual: '500',
        request,
        response: {
          status: 500,
          headers: { 'content-type': 'text/html' },
          body: `<html><body>${TRICKY_TEXT}</body></html>`,
          durationMs: 12.5,
        },
        curl: `curl -i -X POST 'http://127.0.0.1:3000/api/v1/users' --data-raw '{"name":"it'\\''s"}'`,
      },
      {
        check: 'not_a_server_error',
        operationId: 'getUser',
        method: 'GET',
        path: '/users/{id}',
        status: 'failed',
        message: 'the server answered 503',
        expected: 'a status below 500',
        actual: '503',
        curl: `curl -i -X GET 'http://127.0.0.1:3000/api/v1/users/1'`,
      },
      {
        check: 'response_schema_conformance',
        operationId: 'getUser',
        method: 'GET',
        path: '/users/{id}',
        status: 'failed',
        message: 'body: /email must match format "email"',
        expected: 'UserDto',
        actual: `{"email":"${TRICKY_TEXT}"}`,
        curl: `curl -i -X GET 'http://127.0.0.1:3000/api/v1/users/1'`,
      },
      {
        check: 'response_schema_conformance',
        operationId: 'listUsers',
        method: 'GET',
        path: '/users',
        status: 'passed',
        message: '12 response(s) conformed',
      },
      {
        check: 'admin_only',
        operationId: 'deleteUser',
        method: 'DELETE',
        path: '/users/{id}',
        status: 'skipped',
        message: 'no admin credentials (--admin-username/--admin-password)',
      },
      {
        check: 'admin_only',
        operationId: 'listUsers',
        method: 'GET',
        path: '/users',
        status: 'skipped',
        message: 'no admin credentials (--admin-username/--admin-password)',
      },
      {
        check: 'rate_limit_headers',
        operationId: '*',
        method: '*',
        path: '*',
        status: 'skipped',
        message: `the target sends no RateLimit headers <${TRICKY_TEXT}>`,
      },
    ],
    coverage: [
      {
        operationId: 'listUsers',
        method: 'GET',
        path: '/users',
        documented: ['200', '400', '401'],
        exercised: ['200', '401'],
        undocumented: [],
      },
      {
        operationId: 'createUser',
        method: 'POST',
        path: '/users',
        documented: ['201', '400', '4XX'],
        exercised: ['201', '422'],
        undocumented: ['500'],
      },
    ],
  };
}
