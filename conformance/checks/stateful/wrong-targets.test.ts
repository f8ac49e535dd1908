import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../../test/start-test-server.js';
import { runConformance } from '../../run-conformance.js';
import { statefulChecks } from './stateful-checks.js';
import {
  forward,
  omit,
  startTamperingProxy,
  type ProxyRequest,
  type ProxyResponse,
  type Tamper,
} from '../../../test/support/conformance/stateful-test-proxy.js';

const USER = /^\/api\/v1\/users\/(\d+)$/;

function withoutQuery(req: ProxyRequest, name: string): ProxyRequest {
  const url = new URL(req.path, 'http://proxy');
  url.searchParams.delete(name);
  return { ...req, path: url.pathname + url.search };
}

function pathOf(req: ProxyRequest): string {
  return new URL(req.path, 'http://proxy').pathname;
}

const noContent: ProxyResponse = { status: 204, headers: {}, body: '' };

/** One deliberately wrong target per check: the check must fail on it. */
const wrongTargets: [check: string, wrong: string, tamper: (upstream: string) => Tamper][] = [
  [
    'ensure_resource_availability',
    'a new user is not readable yet (replication lag)',
    () => {
      const created = new Set<string>();
      return {
        request: (req) =>
          req.method === 'GET' && created.has(USER.exec(pathOf(req))?.[1] ?? '')
            ? { status: 404, headers: { 'content-type': 'application/problem+json' }, body: '{}' }
            : req,
        response: (res, req) => {
          if (req.method === 'POST' && pathOf(req) === '/api/v1/users' && res.status === 201)
            created.add(String((JSON.parse(res.body) as { id: number }).id));
          return res;
        },
      };
    },
  ],
  [
    'use_after_free',
    'DELETE is a no-op 204',
    () => ({ request: (req) => (req.method === 'DELETE' ? noContent : req) }),
  ],
  [
    'delete_twice',
    'a second DELETE answers 204 instead of 404',
    () => ({
      response: (res, req) => (req.method === 'DELETE' && res.status === 404 ? noContent : res),
    }),
  ],
  [
    'location_resolves',
    'a 201 lacks Location',
    () => ({
      response: (res) =>
        res.status === 201 ? { ...res, headers: omit(res.headers, 'location') } : res,
    }),
  ],
  [
    'location_resolves',
    'Location names another resource',
    () => ({
      response: (res) =>
        res.status === 201 && res.headers.location?.startsWith('/api/v1/users/')
          ? { ...res, headers: { ...res.headers, location: '/api/v1/users/1' } }
          : res,
    }),
  ],
  [
    'head_matches_get',
    'HEAD drops the ETag',
    () => ({
      response: (res, req) =>
        req.method === 'HEAD' ? { ...res, headers: omit(res.headers, 'etag') } : res,
    }),
  ],
  [
    'etag_conditional',
    'If-None-Match is ignored',
    () => ({ request: (req) => ({ ...req, headers: omit(req.headers, 'if-none-match') }) }),
  ],
  [
    'last_modified_conditional',
    'If-Modified-Since is ignored',
    () => ({ request: (req) => ({ ...req, headers: omit(req.headers, 'if-modified-since') }) }),
  ],
  [
    'if_match_precondition',
    'If-Match is ignored',
    () => ({ request: (req) => ({ ...req, headers: omit(req.headers, 'if-match') }) }),
  ],
  [
    'put_idempotent',
    'PUT merges like PATCH (left-out fields kept)',
    () => ({
      request: (req) =>
        req.method === 'PUT' && USER.test(pathOf(req)) ? { ...req, method: 'PATCH' } : req,
    }),
  ],
  [
    'patch_keeps_fields',
    'PATCH resets the age it was not sent',
    () => ({
      request: (req) => {
        if (req.method !== 'PATCH' || !USER.test(pathOf(req)) || !req.body) return req;
        const body = JSON.parse(req.body) as Record<string, unknown>;
        return { ...req, body: JSON.stringify({ age: null, ...body }) };
      },
    }),
  ],
  [
    'get_is_safe',
    'GET of a user records the visit in the user',
    (upstream) => {
      let visits = 18;
      return {
        response: async (res, req) => {
          if (req.method === 'GET' && USER.test(pathOf(req)) && res.status === 200)
            await forward(upstream, {
              method: 'PATCH',
              path: req.path,
              headers: {
                authorization: req.headers.authorization ?? '',
                'content-type': 'application/json',
              },
              body: JSON.stringify({ age: ++visits }),
            });
          return res;
        },
      };
    },
  ],
  [
    'paging_invariants',
    'size is ignored',
    () => ({
      request: (req) =>
        req.method === 'GET' && pathOf(req) === '/api/v1/users' ? withoutQuery(req, 'size') : req,
    }),
  ],
  [
    'filter_honoured',
    'the status filter is ignored',
    () => ({
      request: (req) =>
        req.method === 'GET' && pathOf(req) === '/api/v1/users' ? withoutQuery(req, 'status') : req,
    }),
  ],
  [
    'expand_honoured',
    'expand is ignored',
    () => ({ request: (req) => withoutQuery(req, 'expand') }),
  ],
  [
    'idempotency_key_replay',
    'Idempotency-Key is ignored',
    () => ({ request: (req) => ({ ...req, headers: omit(req.headers, 'idempotency-key') }) }),
  ],
  [
    'refresh_rotation',
    'a spent refresh token replays its first answer (no rotation)',
    (upstream) => {
      const answered = new Map<string, ProxyResponse>();
      return {
        request: async (req) => {
          if (req.method !== 'POST' || pathOf(req) !== '/api/v1/auth/refresh') return req;
          const token =
            (JSON.parse(req.body ?? '{}') as { refreshToken?: string }).refreshToken ?? '';
          const cached = answered.get(token);
          if (cached) return cached;
          const res = await forward(upstream, req);
          if (res.status === 200) answered.set(token, res);
          return res;
        },
      };
    },
  ],
];

describe('stateful checks against deliberately wrong targets', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('cover every stateful check', () => {
    expect(new Set(wrongTargets.map(([check]) => check))).toEqual(
      new Set(statefulChecks.map((c) => c.name)),
    );
  });

  // A seed of its own per run: the generator's emails derive from it, and the target is shared.
  it.each(wrongTargets.map((row, i) => [...row, 100 + i] as const))(
    '%s fails when %s',
    async (check, _wrong, tamper, seed) => {
      const proxy = await startTamperingProxy(server.url, tamper(server.url));
      try {
        const report = await runConformance({
          baseUrl: `${proxy.url}/api/v1`,
          username: 'user@example.com',
          password: TEST_USER_PASSWORD,
          adminUsername: 'admin@example.com',
          adminPassword: TEST_ADMIN_PASSWORD,
          checks: [check],
          seed,
        });
        const failed = report.results.filter((r) => r.check === check && r.status === 'failed');
        expect(failed.length).toBeGreaterThan(0);
        expect(failed.every((r) => !/crashed/.test(r.message))).toBe(true);
      } finally {
        await proxy.close();
      }
    },
  );
});
