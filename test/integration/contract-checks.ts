import { expect } from 'vitest';
import type { SpecOperation } from '../../spec/operations.js';
import { describeResponse, exchange, type Observed, type SentRequest } from './exchange.js';
import type { Fixtures } from './fixtures.js';

/** An RFC 9457 problem as the contract shapes it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  requestId: string;
  errors?: { pointer: string; detail: string }[];
}

export interface ContractCheckInput {
  fx: Fixtures;
  op: SpecOperation;
  sent: SentRequest;
  res: Observed;
  /** On a 400: the exact set of pointers expected in `errors`. */
  pointers?: string[] | undefined;
}

/** `/api/...` (the alias) as the canonical `/api/v1/...` that Location and instance use. */
export function canonicalPath(pathname: string): string {
  if (pathname.startsWith('/api/v1/')) return pathname;
  return pathname.startsWith('/api/') ? `/api/v1${pathname.slice('/api'.length)}` : pathname;
}

/**
 * The headers and problem fields the contract demands of a response with this status, beyond
 * what the spec's schemas say: request id echo, problem `instance` and `requestId`, 400
 * pointers, WWW-Authenticate (with `error="invalid_token"` only when a bearer token was sent),
 * Retry-After on 429 and 503, RateLimit headers on 429, a bodiless 304 with its ETag, and a
 * 201 Location that resolves to the created resource.
 */
export async function expectContract(input: ContractCheckInput): Promise<void> {
  const { res, sent } = input;
  const sentId = sent.headers['X-Request-Id'];
  if (sentId !== undefined) expect(res.headers.get('x-request-id')).toBe(sentId);
  if (res.status >= 400) expectProblem(input);
  if (res.status === 201) await expectLocation(input);
  if (res.status === 304) {
    expect(res.body).toBeNull();
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    const ifNoneMatch = sent.headers['If-None-Match'];
    if (ifNoneMatch !== undefined && ifNoneMatch !== '*') {
      expect(opaque(etag as string)).toBe(opaque(ifNoneMatch));
    }
  }
  if (res.status === 204) expect(res.body).toBeNull();
  if (res.status >= 200 && res.status < 300 && res.body !== null) {
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
  }
}

function expectProblem({ op, sent, res, pointers }: ContractCheckInput): void {
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const problem = res.json<Problem>();
  expect(problem.status).toBe(res.status);
  expect(problem.type).toMatch(/^urn:apikit:problem:[a-z-]+$/);
  expect(problem.instance).toBe(canonicalPath(new URL(sent.url).pathname));
  expect(problem.requestId).toBe(res.headers.get('x-request-id'));
  switch (res.status) {
    case 400: {
      expect(Array.isArray(problem.errors) && problem.errors.length > 0).toBe(true);
      for (const entry of problem.errors ?? []) expect(entry.pointer).toMatch(/^#/);
      if (pointers) {
        expect([...new Set((problem.errors ?? []).map((e) => e.pointer))].sort()).toEqual(
          [...pointers].sort(),
        );
      }
      break;
    }
    case 401: {
      const challenge = res.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer realm="api"/);
      const bearerSent = /^Bearer /i.test(sent.headers.Authorization ?? '');
      expect(challenge.includes('error="invalid_token"'), challenge).toBe(bearerSent);
      break;
    }
    case 405:
      expect(res.headers.get('allow')).toBeTruthy();
      break;
    case 415:
      if (op.method === 'patch') expect(res.headers.get('accept-patch')).toBeTruthy();
      break;
    case 429:
      expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      expect(res.headers.get('ratelimit')).toBeTruthy();
      expect(res.headers.get('ratelimit-policy')).toBeTruthy();
      break;
    case 503:
      expect(res.headers.get('retry-after')).toMatch(/^[0-9]+$/);
      break;
  }
}

async function expectLocation({ fx, res }: ContractCheckInput): Promise<void> {
  const location = res.headers.get('location');
  expect(location).toMatch(/^\/api\/v1\/[a-z]/);
  const read = await exchange({
    method: 'GET',
    url: fx.server.url + (location as string),
    headers: { Authorization: `Bearer ${fx.server.adminToken}` },
  });
  expect(read.status, `GET ${location}: ${describeResponse(read)}`).toBe(200);
  expect(read.json()).toEqual(res.json());
}

function opaque(tag: string): string {
  return tag.replace(/^W\//, '');
}
