import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../../test/start-test-server.js';
import type { CheckResult } from '../../report.js';
import { runConformance } from '../../run-conformance.js';

/**
 * Each check must fail against a deliberately wrong answer. The wrong answers come from a
 * proxy in front of the real reference server that rewrites one kind of answer per test.
 */

interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
type Tamper = (request: SeenRequest, answer: Answer) => Answer;

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

function startProxy(
  upstream: string,
  tamper: () => Tamper,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const seen: SeenRequest = {
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers))
          if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = String(v);
        const upstreamRes = await fetch(upstream + seen.path, {
          method: seen.method,
          headers,
          ...(seen.body && !['GET', 'HEAD'].includes(seen.method) ? { body: seen.body } : {}),
        });
        const answer: Answer = {
          status: upstreamRes.status,
          headers: {},
          body: await upstreamRes.text(),
        };
        upstreamRes.headers.forEach((v, k) => {
          if (!HOP_BY_HOP.has(k)) answer.headers[k] = v;
        });
        const out = tamper()(seen, answer);
        res.writeHead(out.status, out.headers);
        res.end(seen.method === 'HEAD' ? undefined : out.body);
      })().catch((error: Error) => {
        res.writeHead(502);
        res.end(error.message);
      });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

const pass: Tamper = (_req, answer) => answer;
const json = (status: number, body: unknown, type = 'application/json'): Answer => ({
  status,
  headers: { 'content-type': type },
  body: JSON.stringify(body),
});
const without = (answer: Answer, header: string): Answer => ({
  ...answer,
  headers: Object.fromEntries(Object.entries(answer.headers).filter(([k]) => k !== header)),
});

describe('probe checks fail against wrong answers', () => {
  let server: TestServer;
  let proxy: { url: string; server: Server };
  let tamper: Tamper = pass;

  beforeAll(async () => {
    server = await startTestServer();
    proxy = await startProxy(server.url, () => tamper);
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.server.close(resolve));
    await server?.close();
  });

  async function run(checks: string[], include: string[], how: Tamper): Promise<CheckResult[]> {
    tamper = how;
    try {
      const report = await runConformance({
        baseUrl: `${proxy.url}/api/v1`,
        username: 'user@example.com',
        password: TEST_USER_PASSWORD,
        adminUsername: 'admin@example.com',
        adminPassword: TEST_ADMIN_PASSWORD,
        checks,
        include,
        seed: 11,
        maxExamples: 3,
      });
      return report.results;
    } finally {
      tamper = pass;
    }
  }
  const failures = (results: CheckResult[], check: string) =>
    results.filter((r) => r.check === check && r.status === 'failed');

  it('positive_data_acceptance fails when valid data is refused with 400', async () => {
    const results = await run(['positive_data_acceptance'], ['createUser'], (req, answer) =>
      req.method === 'POST' && req.path === '/api/v1/users'
        ? json(400, { type: 'urn:x:validation', title: 'Bad', status: 400, errors: [] })
        : answer,
    );
    const [failure] = failures(results, 'positive_data_acceptance');
    expect(failure).toMatchObject({
      operationId: 'createUser',
      curl: expect.stringContaining('curl'),
    });
    expect(failure?.message).toMatch(/rejected as invalid/);
  });

  it('positive_data_acceptance accepts a 422 for an unknown reference, not one for validation', async () => {
    const unknownReference = await run(
      ['positive_data_acceptance'],
      ['createUser'],
      (req, answer) =>
        req.method === 'POST' && req.path === '/api/v1/users'
          ? json(422, {
              type: 'urn:apikit:problem:unknown-reference',
              title: 'Unknown reference',
              status: 422,
            })
          : answer,
    );
    expect(failures(unknownReference, 'positive_data_acceptance')).toEqual([]);
    const validation = await run(['positive_data_acceptance'], ['createUser'], (req, answer) =>
      req.method === 'POST' && req.path === '/api/v1/users'
        ? json(422, { title: 'x', status: 422, errors: [{ pointer: '#/name', detail: 'bad' }] })
        : answer,
    );
    expect(failures(validation, 'positive_data_acceptance')).toHaveLength(1);
  });

  it('negative_data_rejection fails when invalid data is accepted', async () => {
    const results = await run(['negative_data_rejection'], ['createUser'], (req, answer) =>
      req.method === 'POST' && req.path === '/api/v1/users' ? json(201, { id: 1 }) : answer,
    );
    const [failure] = failures(results, 'negative_data_rejection');
    expect(failure?.message).toMatch(/accepted/);
    expect(failure?.expected).toMatch(/^400 for #/);
  });

  it('unsupported_method fails on a 405 without Allow', async () => {
    const results = await run(['unsupported_method'], ['listUsers'], (_req, answer) =>
      answer.status === 405 ? without(answer, 'allow') : answer,
    );
    expect(failures(results, 'unsupported_method')[0]?.actual).toMatch(/without an Allow/);
  });

  it('unsupported_method fails when an undeclared method is served', async () => {
    const results = await run(['unsupported_method'], ['getUser'], (req, answer) =>
      req.method === 'POST' ? json(200, {}) : answer,
    );
    expect(failures(results, 'unsupported_method')[0]?.actual).toMatch(/^POST: 200/);
  });

  it('allow_header_conformance fails when Allow misses HEAD', async () => {
    const results = await run(['allow_header_conformance'], ['listUsers'], (req, answer) =>
      req.method === 'OPTIONS'
        ? { ...answer, headers: { ...answer.headers, allow: 'GET, POST, OPTIONS' } }
        : answer,
    );
    const [failure] = failures(results, 'allow_header_conformance');
    expect(failure).toMatchObject({ operationId: 'optionsUsers' });
    expect(failure?.message).toMatch(/missing HEAD/);
  });

  it('ignored_auth fails when a malformed token is let through', async () => {
    const results = await run(['ignored_auth'], ['getUser'], (req, answer) =>
      req.headers.authorization === 'Bearer not.a.jwt' ? json(200, { id: 2 }) : answer,
    );
    expect(failures(results, 'ignored_auth')[0]?.message).toMatch(/malformed token/);
  });

  it('ignored_auth fails on a 401 without error="invalid_token" for a presented token', async () => {
    const results = await run(['ignored_auth'], ['listRoles'], (_req, answer) =>
      answer.status === 401
        ? { ...answer, headers: { ...answer.headers, 'www-authenticate': 'Bearer realm="api"' } }
        : answer,
    );
    const [failure] = failures(results, 'ignored_auth');
    expect(failure?.message).not.toMatch(/no Authorization/);
    expect(failure?.actual).toMatch(/no error="invalid_token"/);
  });

  it('admin_role_required fails when the user is not refused with 403', async () => {
    // createUser makes the user to block: a run calls nothing outside its scope (0096).
    const results = await run(
      ['admin_role_required'],
      ['blockUser', 'createUser'],
      (_req, answer) => (answer.status === 403 ? { ...answer, status: 404 } : answer),
    );
    expect(failures(results, 'admin_role_required')[0]).toMatchObject({
      operationId: 'blockUser',
      expected: '403',
    });
  });

  it('not_acceptable fails when Accept is ignored', async () => {
    const results = await run(['not_acceptable'], ['listCategories'], (req, answer) =>
      req.headers.accept === 'text/html' ? json(200, []) : answer,
    );
    expect(failures(results, 'not_acceptable')[0]?.message).toMatch(/answered 200/);
  });

  it('problem_json fails on a status member that is not the HTTP status', async () => {
    const results = await run(['ignored_auth', 'problem_json'], ['listRoles'], (_req, answer) =>
      answer.status === 401
        ? { ...answer, body: answer.body.replace('"status":401', '"status":400') }
        : answer,
    );
    expect(failures(results, 'problem_json')[0]?.message).toMatch(/not the HTTP status 401/);
  });

  it('problem_json fails on an instance that is not the request path', async () => {
    const results = await run(['ignored_auth', 'problem_json'], ['listRoles'], (_req, answer) =>
      answer.status === 401
        ? { ...answer, body: answer.body.replace('/api/v1/roles', '/elsewhere') }
        : answer,
    );
    expect(failures(results, 'problem_json')[0]?.message).toMatch(/instance/);
  });

  it('cache_control_present fails when a GET answer drops Cache-Control', async () => {
    const results = await run(
      ['positive_data_acceptance', 'cache_control_present'],
      ['listUsers'],
      (req, answer) => (req.method === 'GET' ? without(answer, 'cache-control') : answer),
    );
    expect(failures(results, 'cache_control_present')[0]?.message).toMatch(/no Cache-Control/);
  });
});
