import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../test/start-test-server.js';
import {
  startFaultProxy,
  type FaultHooks,
  type FaultProxy,
  type ProxyRequest,
} from '../../test/support/fault-injection/fault-proxy.js';
import { INJECTED_HEADER } from './fuzz-strings.js';
import { failuresOf, fuzzOnly } from '../../test/support/fuzz/fuzz-only.js';

/**
 * Each fuzz oracle must catch what it names: a variant of the reference server (behind the
 * fault proxy) breaks one rule, and the fuzz phase must fail in that oracle's check. The
 * unbroken server behind the same proxy passes the same run, so nothing is caught by noise.
 */

const INCLUDE = ['createUser', 'getUser', 'updateUser', 'replaceUser', 'listUsers'];

const pathOf = (req: ProxyRequest) => new URL(req.path, 'http://proxy').pathname;
const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

interface Variant {
  name: string;
  check: string;
  hooks: FaultHooks;
}

const variants: Variant[] = [
  {
    name: 'answers 500 when a body holds a prototype key, deep nesting or a huge value',
    check: 'fuzz_no_server_error',
    hooks: {
      request: (req) =>
        /__proto__|constructor|\[\[\[\[|\{"a":\{"a":/.test(req.body) || req.body.length > 50_000
          ? {
              status: 500,
              headers: { 'content-type': 'application/problem+json' },
              body: JSON.stringify({
                type: 'urn:apikit:problem:internal-error',
                title: 'Internal server error',
                status: 500,
                detail: 'RangeError: Maximum call stack size exceeded',
              }),
            }
          : req,
    },
  },
  {
    name: 'answers a 400 with its own JSON shape instead of the documented problem',
    check: 'fuzz_response_conformance',
    hooks: {
      response: (res) =>
        res.status === 400
          ? {
              ...res,
              headers: { ...res.headers, 'content-type': 'application/json' },
              body: '{"error":"bad request"}',
            }
          : res,
    },
  },
  {
    // What a client sees when a server writes a request value raw into a header (Location,
    // Link, X-Request-Id): the CR LF ends the line and the rest becomes a header of its own.
    name: 'echoes request values with CR/LF into its headers (response splitting)',
    check: 'fuzz_header_injection',
    hooks: {
      response: (res, req) => {
        const sent = [decoded(req.path), req.body, ...Object.values(req.headers).map(decoded)];
        const split = new RegExp(`[\\r\\n]${INJECTED_HEADER}:`, 'i');
        return sent.some((text) => split.test(text))
          ? { ...res, headers: { ...res.headers, [INJECTED_HEADER]: 'injected' } }
          : res;
      },
    },
  },
  {
    name: 'drops a written age on read-back (a user read answers age: null)',
    check: 'fuzz_read_back',
    hooks: {
      response: (res, req) => {
        if (
          req.method !== 'GET' ||
          res.status !== 200 ||
          !/^\/api\/v1\/users\/\d+$/.test(pathOf(req))
        )
          return res;
        const user = JSON.parse(res.body) as Record<string, unknown>;
        return { ...res, body: JSON.stringify({ ...user, age: null }) };
      },
    },
  },
];

describe('the fuzz oracles against deliberately broken targets', () => {
  let server: TestServer;
  let proxy: FaultProxy;

  beforeAll(async () => {
    server = await startTestServer();
    proxy = await startFaultProxy(server.url, {
      username: 'admin@example.com',
      password: TEST_ADMIN_PASSWORD,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  const run = (hooks: FaultHooks | undefined) => {
    proxy.use(hooks);
    return fuzzOnly({
      baseUrl: `${proxy.url}/api/v1`,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
      include: INCLUDE,
      seed: 4711,
      perOperation: 30,
    });
  };

  it('the unbroken server passes the same run', async () => {
    const { report } = await run(undefined);
    expect(failuresOf(report)).toEqual([]);
  });

  it.each(variants.map((v) => [v.name, v] as const))('%s: caught', async (_name, variant) => {
    const { report } = await run(variant.hooks);
    const failed = report.results.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.check)).toContain(variant.check);
    const finding = failed.find((r) => r.check === variant.check)!;
    // Reproducible: the seed and the case are named, and a curl line resends the request.
    expect(finding.message).toMatch(/fuzz case #\d+ of \w+ \(.+\), seed 4711/);
    expect(finding.curl).toMatch(/^curl -i -X [A-Z]+ 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\//);
    expect(finding.expected).toBeTruthy();
    expect(finding.actual).toBeTruthy();
  });
});
