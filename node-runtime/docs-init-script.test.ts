import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { packageRoot } from '../spec/spec-path.js';
import { DOCS_INIT_SCRIPT } from './docs-init-script.js';

/*
 * The /docs init script run in a bare context, its browser (location, fetch, Swagger UI)
 * played by stubs: what the page's copy of the contract becomes and what its interceptors send.
 * docs-demo-sweep.test.ts runs it in Chromium against both servers.
 */

const ORIGIN = 'http://127.0.0.1:4321';
const BASE = `${ORIGIN}/api/v1`;

interface Request {
  url: string;
  method: string;
  body?: unknown;
}
interface Rendered {
  spec: Spec;
  requestInterceptor(request: Request): Request;
  responseInterceptor(response: { ok: boolean; body?: unknown }): unknown;
}
// A loose view of the description: the script only reads and writes plain JSON.
type Spec = Record<string, any>;

/** Runs the script over `spec` as /openapi.json; answers what it handed to SwaggerUIBundle. */
async function renderPage(spec: Spec): Promise<Rendered> {
  return new Promise((resolve, reject) => {
    const context = {
      window: { location: { origin: ORIGIN } },
      fetch: () => Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(spec) }),
      SwaggerUIBundle: (config: Rendered) => resolve(config),
      document: {
        getElementById: () => ({
          set textContent(text: string) {
            reject(new Error(text));
          },
        }),
      },
      console: { warn: (text: string) => reject(new Error(text)) },
      URL,
      Date,
      JSON,
    };
    runInNewContext(DOCS_INIT_SCRIPT, context);
  });
}

const contract = (): Spec =>
  JSON.parse(readFileSync(join(packageRoot, 'spec', 'openapi.json'), 'utf8')) as Spec;
const json = (value: unknown) => JSON.stringify(value, null, 2);
const exampleOf = (spec: Spec, path: string, name: string) =>
  spec.paths[path].post.requestBody.content['application/json'].examples[name].value;

describe('the /docs init script', () => {
  it('shows the server as the concrete URL of this origin, with no variable', async () => {
    const { spec } = await renderPage(contract());
    expect(spec.servers).toHaveLength(1);
    expect(spec.servers[0].url).toBe(BASE);
    expect(spec.servers[0].variables).toBeUndefined();
    expect(spec.servers[0].description).not.toContain('{');
  });

  it('fills no validator and no Idempotency-Key, inline or shared', async () => {
    const { spec } = await renderPage(contract());
    const headers = [
      ...Object.values<Spec>(spec.components.parameters),
      ...Object.values<Spec>(spec.paths).flatMap((item) =>
        Object.values<Spec>(item).flatMap((entry) => entry?.parameters ?? []),
      ),
      ...(Object.values<Spec>(spec.paths).flatMap((item) => item.parameters ?? []) as Spec[]),
    ].filter((parameter) => parameter.in === 'header');
    const stripped = headers.filter((parameter) =>
      /^(if-match|if-none-match|if-modified-since|idempotency-key)$/i.test(parameter.name),
    );
    expect(stripped.length).toBeGreaterThanOrEqual(4);
    for (const parameter of stripped) {
      expect(parameter.example, parameter.name).toBeUndefined();
      expect(parameter.examples, parameter.name).toBeUndefined();
      expect(parameter.description).toContain('On this page');
    }
    // The contract itself keeps them.
    expect(contract().components.parameters.IfMatch.example).toBeDefined();
  });

  it("sends a create's example email made unique at each Execute, a typed one as it is", async () => {
    const { spec, requestInterceptor } = await renderPage(contract());
    expect(spec.paths['/users'].post.description).toContain('made unique');
    const create = (body: unknown) =>
      JSON.parse(
        requestInterceptor({ url: `${BASE}/users`, method: 'POST', body: json(body) })
          .body as string,
      ) as { email: string };
    for (const name of ['full', 'minimal']) {
      const example = exampleOf(spec, '/users', name) as { email: string };
      const [local, domain] = example.email.split('@');
      const first = create(example).email;
      const second = create(example).email;
      expect(first).toMatch(new RegExp(`^${local}\\+[0-9a-z]+@${domain}$`));
      expect(second).not.toBe(first);
    }
    const typed = { ...exampleOf(spec, '/users', 'full'), email: 'mine@example.com' };
    expect(create(typed).email).toBe('mine@example.com');
    // Not a create: a PUT of the same body, and the login, are sent as they are.
    const put = {
      url: `${BASE}/users/2`,
      method: 'PUT',
      body: json(exampleOf(spec, '/users', 'full')),
    };
    expect(requestInterceptor({ ...put }).body).toBe(put.body);
    const login = json(exampleOf(spec, '/auth/login', 'admin'));
    expect(
      requestInterceptor({ url: `${BASE}/auth/login`, method: 'POST', body: login }).body,
    ).toBe(login);
  });

  it('sends the refresh token the last login answered where the example one is', async () => {
    const { spec, requestInterceptor, responseInterceptor } = await renderPage(contract());
    const example = spec.components.schemas.LogoutRequest.example as { refreshToken: string };
    const send = (path: string, body: unknown) =>
      JSON.parse(
        requestInterceptor({ url: `${BASE}${path}`, method: 'POST', body: json(body) })
          .body as string,
      ) as { refreshToken: string };
    // Nothing remembered yet: the example goes as it is (and is refused, 401).
    expect(send('/auth/refresh', example).refreshToken).toBe(example.refreshToken);
    responseInterceptor({ ok: false, body: { refreshToken: 'not-an-answer' } });
    responseInterceptor({ ok: true, body: { accessToken: 'a', refreshToken: 'from-login' } });
    expect(send('/auth/refresh', example).refreshToken).toBe('from-login');
    responseInterceptor({ ok: true, body: { accessToken: 'b', refreshToken: 'rotated' } });
    expect(send('/auth/logout', example).refreshToken).toBe('rotated');
    expect(send('/auth/logout', { refreshToken: 'typed' }).refreshToken).toBe('typed');
    expect(spec.paths['/auth/refresh'].post.description).toContain('last Log in or refresh');
  });

  it("puts this origin with a fixed first server's path first, as before", async () => {
    const { spec } = await renderPage({
      openapi: '3.0.3',
      info: { title: 'Things', version: '1' },
      servers: [{ url: 'https://things.example/v2/' }],
      paths: {},
    });
    expect(spec.servers.map((server: Spec) => server.url)).toEqual([
      `${ORIGIN}/v2`,
      'https://things.example/v2/',
    ]);
  });
});
