// A recorder for the tests of the replay only: it drives createMockApi's answer() directly and
// writes what the mocks' own recording (item 1 of issue 33) writes, by the format of
// spec/interactions/interaction-file.ts, so the replay is tested whatever the recorder's state.
import { createHash } from 'node:crypto';
import { createMockApi, type MockApi } from '../../mocks/create-mock-api.js';
import {
  INTERACTION_FORMAT,
  PLACEHOLDERS,
  type InteractionFile,
  type RecordedInteraction,
  type RecordedTest,
} from '../../spec/interactions/interaction-file.js';
import { maskVaryingRequest, maskVaryingResponse } from '../../spec/interactions/varying-values.js';

const REQUEST_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'idempotency-key',
  'prefer',
];

export const MOCK_ORIGIN = 'http://frontend.test';
export const MOCK_API = `${MOCK_ORIGIN}/api/v1`;

export interface Recording {
  mock: MockApi;
  /** Sends one request through the mocks as `test` and records it; resolves with the answer. */
  send(
    test: RecordedTest,
    path: string,
    init?: RequestInit,
  ): Promise<{ status: number; headers: Headers; body: unknown }>;
  /** Logs in through the mocks as the demo admin (recorded as `test`); the access token. */
  login(test: RecordedTest): Promise<string>;
  file(consumer?: string): InteractionFile;
}

export function startRecording(): Recording {
  const mock = createMockApi();
  const byKey = new Map<string, RecordedInteraction>();
  const recording: Recording = {
    mock,
    async send(test, path, init = {}) {
      const request = new Request(`${MOCK_API}${path}`, init);
      const sentBody = init.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
      const answer = await mock.answer(request);
      if (!answer || answer === 'network-error')
        throw new Error(`the mocks did not answer ${path}`);
      const body = answer.body ? (JSON.parse(answer.body) as unknown) : undefined;
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      for (const name of REQUEST_HEADERS) {
        const value = request.headers.get(name);
        if (value !== null)
          headers[name] = name === 'authorization' ? `Bearer ${PLACEHOLDERS.accessToken}` : value;
      }
      const responseHeaders: Record<string, string> = {};
      answer.headers.forEach((value, name) => (responseHeaders[name] = value));
      const requestId = answer.headers.get('x-request-id');
      // Values of the moment masked as the mocks' own recorder does (`<varies>`, decision 0112).
      const interaction: Omit<RecordedInteraction, 'key' | 'tests'> = {
        operationId: answer.operationId ?? 'unknown',
        request: maskVaryingRequest({
          method: request.method,
          path: url.pathname,
          query: [...url.searchParams],
          headers,
          ...(sentBody !== undefined ? { body: hide(sentBody) } : {}),
        }),
        response: maskVaryingResponse(
          {
            status: answer.status,
            headers: responseHeaders,
            ...(body !== undefined ? { body: hide(body) } : {}),
          },
          (text) => text === requestId,
        ),
        ...(answer.canned ? { canned: answer.canned } : {}),
      };
      const key = `${interaction.operationId} ${answer.status} ${shapeHash(interaction)}`;
      const known = byKey.get(key);
      if (known) {
        if (!known.tests.some((t) => t.file === test.file && t.name === test.name))
          known.tests.push(test);
      } else byKey.set(key, { key, ...interaction, tests: [test] });
      return { status: answer.status, headers: answer.headers, body };
    },
    async login(test) {
      const res = await recording.send(test, '/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
      });
      return (res.body as { accessToken: string }).accessToken;
    },
    file(consumer = 'recorded-app') {
      return {
        format: INTERACTION_FORMAT,
        consumer,
        contract: { title: 'User/Order Service', version: '1.0.0' },
        interactions: [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key)),
      };
    },
  };
  return recording;
}

function hide(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hide);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === 'password'
        ? PLACEHOLDERS.password
        : k === 'accessToken'
          ? PLACEHOLDERS.accessToken
          : k === 'refreshToken'
            ? PLACEHOLDERS.refreshToken
            : hide(v),
    ]),
  );
}

function shapeHash(x: Omit<RecordedInteraction, 'key' | 'tests'>): string {
  const shape = (v: unknown): unknown =>
    Array.isArray(v)
      ? [shape(v[0])]
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.entries(v)
              .sort()
              .map(([k, y]) => [k, shape(y)]),
          )
        : v === null
          ? 'null'
          : typeof v;
  const text = JSON.stringify([
    x.request.method,
    x.request.query.map(([n]) => n),
    Object.keys(x.request.headers).sort(),
    shape(x.request.body),
    Object.keys(x.response.headers).sort(),
    shape(x.response.body),
  ]);
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}
