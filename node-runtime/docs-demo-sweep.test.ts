import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../spec/spec-path.js';
import { DOCS_SERVERS, openDocsPage } from '../test/support/browser/open-docs-page.js';

/*
 * /docs as a demo (issue 31, decision 0110), in Debian's Chromium: a visitor logs in with the
 * login example, authorizes with the token, then presses Try it out and Execute with the
 * page's defaults on every operation the page shows (OPTIONS aside), and each answers its
 * documented success. Creates first (createUser twice: a second Execute of the same example),
 * then reads, updates, state changes, deletes of children before parents, logout and the reset
 * last; the same sweep on the reference server and on `apikit mock`.
 */

const TIMEOUT_MS = 20_000;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
/** Headers the page must not send unless a visitor types them (the examples would fail). */
const NOT_SENT = ['if-match', 'if-none-match', 'if-modified-since', 'idempotency-key'];

/** The sweep, in the order a visitor could press Execute; login, then Authorize, comes first. */
const SWEEP = [
  'login',
  ...['createUser', 'createUser', 'createUserOrder'],
  ...['listUsers', 'getUser', 'listUserOrders', 'getUserOrder', 'getOrder', 'getOrderItem'],
  ...['listUserRoles', 'listRoles', 'listCategories', 'getCategory'],
  ...['replaceUser', 'updateUser', 'replaceUserOrder', 'updateUserOrder'],
  ...['activateUser', 'blockUser', 'unblockUser', 'cancelOrder', 'assignUserRole'],
  ...['removeUserRole', 'refreshToken'],
  ...['deleteUserOrder', 'deleteUser', 'logout', 'resetData'],
];

interface Operation {
  id: string;
  method: string;
  /** Swagger UI's element id: `operations-<first tag>-<operationId>`. */
  selector: string;
  /** The lowest documented 2xx (replaceUser: 200, the example replaces an existing user). */
  success: number;
}

/** Every operation of the served contract but OPTIONS, by operationId. */
function operationsOfTheContract(): Map<string, Operation> {
  type Doc = {
    paths: Record<
      string,
      Record<string, { operationId: string; tags?: string[]; responses: object }>
    >;
  };
  const spec = JSON.parse(readFileSync(join(packageRoot, 'spec', 'openapi.json'), 'utf8')) as Doc;
  const found = new Map<string, Operation>();
  for (const item of Object.values(spec.paths))
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const success = Object.keys(operation.responses)
        .map(Number)
        .filter((s) => s >= 200 && s < 300);
      found.set(operation.operationId, {
        id: operation.operationId,
        method: method.toUpperCase(),
        selector: `#operations-${operation.tags?.[0] ?? 'default'}-${operation.operationId}`,
        success: Math.min(...success),
      });
    }
  return found;
}

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}
interface Answer {
  status: number;
  body: string;
}

const OPERATIONS = operationsOfTheContract();

it('sweeps every operation the page shows but OPTIONS', () => {
  expect([...new Set(SWEEP)].sort()).toEqual([...OPERATIONS.keys()].sort());
});

describe.each(DOCS_SERVERS)('/docs as a demo $name', ({ start }) => {
  let server: { url: string; close(): Promise<void> };
  let browser: Browser | undefined;
  let page: Page;
  const sent: Sent[] = [];
  let problems: string[] = [];

  beforeAll(async () => {
    server = await start();
    ({ browser, page, problems } = await openDocsPage(server.url, TIMEOUT_MS, (request) =>
      sent.push({
        method: request.method(),
        url: request.url(),
        headers: request.headers(),
        body: request.postData(),
      }),
    ));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Presses Execute on an open operation; answers what came back, once the page shows it. */
  async function execute(block: Locator, operation: Operation): Promise<Answer> {
    const api = `${server.url}/api/v1/`;
    const answered = page.waitForResponse(
      (res) => res.url().startsWith(api) && res.request().method() === operation.method,
      { timeout: TIMEOUT_MS },
    );
    await block.locator('button.execute').click();
    const res = await answered;
    const answer = { status: res.status(), body: await res.text() };
    const shown = block.locator('.live-responses-table .response .response-col_status').first();
    await expect.poll(async () => (await shown.textContent())?.trim()).toBe(String(answer.status));
    return answer;
  }

  /** Opens an operation, presses Try it out, then Execute `times` times. */
  async function tryItOut(operation: Operation, times: number): Promise<Answer[]> {
    const block = page.locator(operation.selector);
    await block.locator('.opblock-summary').first().click();
    await block.locator('button.try-out__btn').click();
    const answers: Answer[] = [];
    for (let n = 0; n < times; n++) answers.push(await execute(block, operation));
    // Closed again, so the page keeps one operation's responses rendered at a time.
    await block.locator('.opblock-summary').first().click();
    return answers;
  }

  async function authorize(accessToken: string): Promise<void> {
    await page.locator('.auth-wrapper .authorize').first().click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.locator('input').first().fill(accessToken);
    await dialog.locator('button.authorize').click();
    await dialog.locator('button.btn-done').click();
  }

  it('shows the API URL of its own origin as the server: concrete, no variable box', async () => {
    const options = await page.locator('.servers select option').allTextContents();
    expect(options[0]).toContain(`${server.url}/api/v1`);
    expect(options.join(' ')).not.toContain('{');
    expect(await page.locator('.servers input').count()).toBe(0);
  });

  it('answers each operation its documented success with the defaults, in a sweep', async () => {
    const statuses: [string, number][] = [];
    const answers = new Map<string, Answer[]>();
    const runs = SWEEP.reduce((counts, id) => counts.set(id, (counts.get(id) ?? 0) + 1), new Map());
    for (const [id, times] of runs) {
      const operation = OPERATIONS.get(id)!;
      const got = await tryItOut(operation, times);
      answers.set(id, got);
      for (const answer of got) statuses.push([id, answer.status]);
      if (id === 'login')
        await authorize((JSON.parse(got[0]!.body) as { accessToken: string }).accessToken);
    }
    // Every status at once: one wrong default does not hide the others.
    expect(statuses).toEqual(SWEEP.map((id) => [id, OPERATIONS.get(id)!.success]));

    // No validator, no fixed key: the page sent none of them.
    for (const request of sent)
      for (const name of NOT_SENT)
        expect(request.headers[name], `${request.method} ${request.url}`).toBeUndefined();

    // Two users from one example: each Execute's email is its own, none the example's.
    const created = answers
      .get('createUser')!
      .map((a) => (JSON.parse(a.body) as { email: string }).email);
    expect(new Set(created).size).toBe(2);
    for (const email of created) expect(email).toMatch(/^grace\+[0-9a-z]+@example\.com$/);

    // The refresh used the login's refresh token, and the logout the rotated one.
    const tokenOf = (text: string | null | undefined) =>
      (JSON.parse(text ?? '{}') as { refreshToken?: string }).refreshToken;
    const bodyTo = (path: string) => sent.find((request) => request.url.endsWith(path))?.body;
    expect(tokenOf(bodyTo('/auth/refresh'))).toBe(tokenOf(answers.get('login')![0]!.body));
    expect(tokenOf(bodyTo('/auth/logout'))).toBe(tokenOf(answers.get('refreshToken')![0]!.body));
    expect(problems).toEqual([]);
  }, 300_000);
});
