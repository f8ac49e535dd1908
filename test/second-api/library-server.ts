import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { createAjv } from '../../spec/create-ajv.js';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';
import {
  ACCOUNTS,
  GENRES,
  LibraryProblem,
  LibraryStore,
  type Account,
  type Author,
  type BookInput,
  type Stored,
} from './library-store.js';

/**
 * The Lending Library of `library.yaml`, served over plain node:http from memory: the second
 * API the conformance runner is held to (decision 0116). Routing, parameters and bodies are
 * read from the description; the rules are `library-store.ts`'s. Checks run in the order the
 * description's conventions give: route 404, method 405, 401, 403, 406, 415, 400 (path,
 * query), 404 (resource), 412, 400 (body), then 409 / 422.
 */

export const LIBRARY_SPEC = fileURLToPath(new URL('./library.yaml', import.meta.url));
export const BASE_PATH = '/lib';
const PROBLEMS = 'https://library.example/problems/';
const TITLES: Record<string, string> = {
  'invalid-request': 'Invalid request',
  'bad-json': 'Body is not JSON',
  'no-session': 'Session required',
  'bad-session': 'Session not valid',
  'bad-login': 'Wrong username or password',
  'not-allowed': 'Not allowed',
  'no-such-thing': 'No such thing',
  'wrong-method': 'Method not supported',
  'not-acceptable': 'Cannot answer in an acceptable type',
  'isbn-taken': 'ISBN already catalogued',
  'loan-state': 'Loan cannot move so',
  precondition: 'Precondition failed',
  'media-type': 'Media type not supported',
  'unknown-genre': 'Unknown genre',
};
const TOKEN_SECONDS = 3600;

export interface LibraryServer {
  /** The origin, e.g. `http://127.0.0.1:40123`; the API is under `${url}/lib`. */
  url: string;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** The body as it is (not JSON). */
  text?: string;
}

interface Call {
  op: SpecOperation;
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  body: unknown;
  account: Account | undefined;
  /** The resource the path names, looked up before the preconditions. */
  current: Stored<unknown> | undefined;
  requestPath: string;
}

interface Route {
  template: string;
  pattern: RegExp;
  names: string[];
  ops: Map<string, SpecOperation>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    detail: string,
    readonly errors?: { pointer: string; detail: string }[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** Starts the library on 127.0.0.1, port 0, empty but for its genres and two accounts. */
export async function startLibraryServer(): Promise<LibraryServer> {
  const doc = await loadSpec(LIBRARY_SPEC);
  const yamlText = await readFile(LIBRARY_SPEC, 'utf8');
  const ajv = createAjv();
  const validators = new Map<object, ValidateFunction>();
  const validate = (schema: object): ValidateFunction => {
    let v = validators.get(schema);
    if (!v) validators.set(schema, (v = ajv.compile(schema)));
    return v;
  };
  const routes = routesOf(listOperations(doc));
  const store = new LibraryStore();
  const sessions = new Map<string, { account: Account; expires: number }>();

  const handle = async (req: IncomingMessage, raw: string): Promise<Answer> => {
    const url = new URL(req.url ?? '/', 'http://library');
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname === '/health' && (method === 'GET' || method === 'HEAD'))
      return { status: 200, body: { status: 'ok' } };
    if (url.pathname === '/library.yaml' && (method === 'GET' || method === 'HEAD'))
      return { status: 200, headers: { 'content-type': 'application/yaml' }, text: yamlText };
    const below = url.pathname.startsWith(`${BASE_PATH}/`)
      ? url.pathname.slice(BASE_PATH.length)
      : undefined;
    const matched = below === undefined ? undefined : match(routes, below);
    if (!matched) throw new Refusal(404, 'no-such-thing', `${url.pathname} is not a path here.`);
    const { route, path } = matched;
    const allow = allowed(route);
    if (method === 'OPTIONS') return { status: 204, headers: { allow } };
    const op = route.ops.get(method === 'HEAD' ? 'get' : method.toLowerCase());
    if (!op)
      throw new Refusal(405, 'wrong-method', `${method} is not supported here.`, undefined, {
        allow,
      });
    const account = authenticate(op, req.headers, sessions);
    const role = (op.operation as Record<string, unknown>)['x-apikit-role'];
    if (typeof role === 'string' && account?.role !== role)
      throw new Refusal(403, 'not-allowed', `Only a ${role} may do this.`);
    if (!acceptable(req.headers.accept))
      throw new Refusal(406, 'not-acceptable', 'This answers application/json only.');
    const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (op.requestBody && !(mediaType in op.requestBody.content))
      throw new Refusal(
        415,
        'media-type',
        `Send ${Object.keys(op.requestBody.content).join(' or ')}.`,
      );
    const query = parameters(op, path, url.searchParams, validate);
    const call: Call = {
      op,
      path,
      query,
      headers: req.headers,
      body: undefined,
      account,
      current: undefined,
      requestPath: url.pathname,
    };
    call.current = lookUp(store, op, path);
    if (call.current && op.parameters.some((p) => p.name === 'If-Match'))
      judgeIfMatch(req.headers['if-match'], call.current);
    if (
      call.current &&
      op.method !== 'get' &&
      notModified(call, etag(call.current.value), undefined)
    )
      throw new Refusal(412, 'precondition', 'If-None-Match matches the current entity tag.');
    if (op.requestBody) call.body = parseBody(raw, op, mediaType, validate);
    return operate(store, sessions, call);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const traceId = String(req.headers['x-trace-id'] ?? randomUUID());
      handle(req, Buffer.concat(chunks).toString('utf8'))
        .catch((error: unknown) => problemAnswer(error, new URL(req.url ?? '/', 'http://l')))
        .then((answer) => send(res, answer, traceId, req.method === 'HEAD'))
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function routesOf(ops: SpecOperation[]): Route[] {
  const routes = new Map<string, Route>();
  for (const op of ops) {
    let route = routes.get(op.path);
    if (!route) {
      const names: string[] = [];
      const source = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      route = { template: op.path, pattern: new RegExp(`^${source}$`), names, ops: new Map() };
      routes.set(op.path, route);
    }
    route.ops.set(op.method, op);
  }
  // Fixed segments before parameters: /loans/{id}/approve is never read as another route.
  return [...routes.values()].sort((a, b) => a.names.length - b.names.length);
}

function match(routes: Route[], path: string) {
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (m)
      return {
        route,
        path: Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])),
      };
  }
  return undefined;
}

function allowed(route: Route): string {
  const methods = [...route.ops.keys()].map((m) => m.toUpperCase());
  if (methods.includes('GET')) methods.push('HEAD');
  return [...methods, 'OPTIONS'].join(', ');
}

function authenticate(
  op: SpecOperation,
  headers: IncomingMessage['headers'],
  sessions: Map<string, { account: Account; expires: number }>,
): Account | undefined {
  const open = Array.isArray(op.operation.security) && op.operation.security.length === 0;
  if (open) return undefined;
  const header = headers.authorization;
  const bearer = header ? /^Bearer +(\S+)$/i.exec(header) : null;
  const challenge = 'Bearer realm="library"';
  if (!bearer)
    throw new Refusal(401, 'no-session', 'Open a session first.', undefined, {
      'www-authenticate': challenge,
    });
  const session = sessions.get(bearer[1]!);
  if (!session || session.expires < Date.now())
    throw new Refusal(401, 'bad-session', 'The session token is not valid.', undefined, {
      'www-authenticate': `${challenge}, error="invalid_token"`,
    });
  return session.account;
}

function acceptable(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) return false;
    return ['*/*', 'application/*', 'application/json', 'application/problem+json'].includes(type!);
  });
}

/** Path and query parameters, parsed by their schemas and validated; every violation listed. */
function parameters(
  op: SpecOperation,
  path: Record<string, string>,
  search: URLSearchParams,
  validate: (schema: object) => ValidateFunction,
): Record<string, unknown> {
  const errors: { pointer: string; detail: string }[] = [];
  const query: Record<string, unknown> = {};
  const declared = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const name of new Set(search.keys()))
    if (!declared.has(name)) errors.push({ pointer: `#/query/${name}`, detail: 'unknown' });
  for (const p of op.parameters.filter((x) => x.in === 'path' || x.in === 'query')) {
    const schema = p.schema as OpenAPIV3.SchemaObject;
    const raw = p.in === 'path' ? [path[p.name]!] : search.getAll(p.name);
    if (raw.length === 0) continue;
    const pointer = `#/${p.in}/${p.name}`;
    let value: unknown;
    if (schema.type === 'array') value = raw.map((r) => scalar(r, schema.items as never));
    else if (raw.length > 1) {
      errors.push({ pointer, detail: 'given more than once' });
      continue;
    } else value = scalar(raw[0]!, schema);
    const check = validate(schema);
    if (!check(value))
      errors.push(
        ...(check.errors ?? []).map((e) => ({ pointer, detail: e.message ?? 'invalid' })),
      );
    else if (p.in === 'path') path[p.name] = value as string;
    else query[p.name] = value;
  }
  if (errors.length > 0) throw new Refusal(400, 'invalid-request', 'Bad parameters.', errors);
  return query;
}

function scalar(raw: string, schema: OpenAPIV3.SchemaObject): unknown {
  if (schema.type === 'integer' || schema.type === 'number')
    return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  return raw;
}

function lookUp(
  store: LibraryStore,
  op: SpecOperation,
  path: Record<string, string>,
): Stored<unknown> | undefined {
  if (path.loanId !== undefined) return store.loan(Number(path.loanId));
  if (path.bookId !== undefined) return store.book(path.bookId);
  if (path.authorId !== undefined) return store.author(path.authorId);
  if (path.genreId !== undefined) {
    const genre = GENRES.find((g) => g.id === path.genreId);
    if (!genre)
      throw new LibraryProblem(404, 'no-such-thing', `Genre ${path.genreId} does not exist.`);
    return { value: genre, changedAt: 0 };
  }
  void op;
  return undefined;
}

function judgeIfMatch(header: string | undefined, current: Stored<unknown>): void {
  if (header === undefined) return;
  const tag = etag(current.value);
  const tags = header.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.includes(tag)) return;
  throw new Refusal(412, 'precondition', 'If-Match does not match the current entity tag.');
}

function parseBody(
  raw: string,
  op: SpecOperation,
  mediaType: string,
  validate: (schema: object) => ValidateFunction,
): unknown {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new Refusal(400, 'bad-json', 'The body is not well-formed JSON.', [
      { pointer: '#', detail: 'not JSON' },
    ]);
  }
  const schema = op.requestBody!.content[mediaType]!.schema as object;
  const check = validate(schema);
  if (!check(body))
    throw new Refusal(400, 'invalid-request', 'The body violates its schema.', [
      ...(check.errors ?? []).map(pointerOf),
    ]);
  return body;
}

function pointerOf(e: ErrorObject): { pointer: string; detail: string } {
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  const name = params.missingProperty ?? params.additionalProperty;
  const escaped = name?.replace(/~/g, '~0').replace(/\//g, '~1');
  return {
    pointer: `#${e.instancePath}${escaped === undefined ? '' : `/${escaped}`}`,
    detail: e.message ?? 'invalid',
  };
}

export function etag(value: unknown, weak = false): string {
  const hash = createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, 20);
  return `${weak ? 'W/' : ''}"${hash}"`;
}

const httpDate = (ms: number) => new Date(ms).toUTCString();

/** The validators of a resource, and 304 when the request's conditions say unchanged. */
function representation(call: Call, stored: Stored<unknown>, cache: string): Answer {
  const tag = etag(stored.value);
  const headers = {
    etag: tag,
    'last-modified': httpDate(stored.changedAt),
    'cache-control': cache,
  };
  if (notModified(call, tag, stored.changedAt)) return { status: 304, headers };
  return { status: 200, headers, body: stored.value };
}

function notModified(call: Call, tag: string, changedAt: number | undefined): boolean {
  const inm = call.headers['if-none-match'];
  if (inm !== undefined) {
    const bare = (t: string) => t.trim().replace(/^W\//, '');
    return inm.split(',').some((t) => t.trim() === '*' || bare(t) === bare(tag));
  }
  const ims = call.headers['if-modified-since'];
  if (ims === undefined || changedAt === undefined) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Math.floor(changedAt / 1000) * 1000 <= since;
}

function created(stored: Stored<{ id: unknown }>, location: string): Answer {
  return {
    status: 201,
    headers: {
      location: `${BASE_PATH}${location}`,
      etag: etag(stored.value),
      'last-modified': httpDate(stored.changedAt),
    },
    body: stored.value,
  };
}

function changed(stored: Stored<unknown>): Answer {
  return {
    status: 200,
    headers: { etag: etag(stored.value), 'last-modified': httpDate(stored.changedAt) },
    body: stored.value,
  };
}

async function operate(
  store: LibraryStore,
  sessions: Map<string, { account: Account; expires: number }>,
  call: Call,
): Promise<Answer> {
  const { path, query } = call;
  const body = call.body as Record<string, never>;
  switch (call.op.operationId) {
    case 'openSession': {
      const account = ACCOUNTS.find(
        (a) => a.username === body.username && a.password === body.password,
      );
      if (!account)
        throw new Refusal(401, 'bad-login', 'Wrong username or password.', undefined, {
          'www-authenticate': 'Bearer realm="library"',
        });
      const token = randomBytes(24).toString('base64url');
      sessions.set(token, { account, expires: Date.now() + TOKEN_SECONDS * 1000 });
      return {
        status: 200,
        headers: { 'cache-control': 'no-store' },
        body: { accessToken: token, tokenType: 'Bearer', expiresIn: TOKEN_SECONDS },
      };
    }
    case 'listGenres':
      return { status: 200, headers: { 'cache-control': 'public, max-age=86400' }, body: GENRES };
    case 'getGenre':
      return {
        status: 200,
        headers: { 'cache-control': 'public, max-age=86400' },
        body: call.current!.value,
      };
    case 'listAuthors':
      return authorPage(store, call, query.page as number | undefined, query.size as number);
    case 'createAuthor': {
      const stored = store.createAuthor(body as unknown as Author);
      return created(stored, `/authors/${stored.value.id}`);
    }
    case 'getAuthor':
    case 'getBook':
      return representation(call, call.current!, 'no-cache');
    case 'updateAuthor':
      return changed(store.updateAuthor(path.authorId!, body));
    case 'deleteAuthor':
      store.deleteAuthor(path.authorId!);
      return { status: 204 };
    case 'listAuthorBooks':
      return { status: 200, body: store.booksOf(path.authorId!) };
    case 'createAuthorBook': {
      const stored = store.createBook(path.authorId!, body as unknown as BookInput);
      return created(stored, `/books/${stored.value.id}`);
    }
    case 'listBooks':
      return { status: 200, body: store.sortedBooks((query.orderBy as string[]) ?? []) };
    case 'replaceBook':
      return {
        status: 200,
        body: store.replaceBook(path.bookId!, body as unknown as BookInput).value,
      };
    case 'deleteBook':
      store.deleteBook(path.bookId!);
      return { status: 204 };
    case 'createBookLoan': {
      const stored = store.createLoan(path.bookId!, body.days);
      return {
        ...created(stored, `/loans/${stored.value.id}`),
        headers: { location: `${BASE_PATH}/loans/${stored.value.id}` },
      };
    }
    case 'listLoans':
      return { status: 200, body: store.sortedLoans() };
    case 'getLoan':
      return { status: 200, body: call.current!.value };
    case 'updateLoan':
      return { status: 200, body: store.updateLoan(Number(path.loanId), body.days).value };
    case 'deleteLoan':
      store.loans.delete(Number(path.loanId));
      return { status: 204 };
    case 'approveLoan':
    case 'returnLoan':
    case 'loseLoan':
      return {
        status: 200,
        body: store.moveLoan(Number(path.loanId), call.op.operationId.replace(/Loan$/, '')).value,
      };
    default:
      throw new Error(`no handler for ${call.op.operationId}`);
  }
}

function authorPage(store: LibraryStore, call: Call, page = 0, size = 10): Answer {
  const all = store.sortedAuthors();
  const totalPages = Math.ceil(all.length / size);
  const last = Math.max(totalPages - 1, 0);
  const body = {
    content: all.slice(page * size, page * size + size),
    totalElements: all.length,
    totalPages,
    page,
    size,
  };
  const link = (p: number, rel: string) =>
    `<${BASE_PATH}/authors?page=${p}&size=${size}>; rel="${rel}"`;
  const links = [link(0, 'first')];
  if (page > 0) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  const tag = etag(body, true);
  const headers = { etag: tag, link: links.join(', '), 'cache-control': 'no-cache' };
  if (notModified(call, tag, undefined)) return { status: 304, headers };
  return { status: 200, headers, body };
}

function problemAnswer(error: unknown, url: URL): Answer {
  const known = error instanceof Refusal || error instanceof LibraryProblem;
  const status = known ? error.status : 500;
  const slug = known ? error.slug : 'internal';
  const body = {
    type: `${PROBLEMS}${slug}`,
    title: TITLES[slug] ?? 'Internal error',
    status,
    detail: known ? error.message : 'Something went wrong.',
    instance: url.pathname,
    ...(error instanceof Refusal && error.errors ? { errors: error.errors } : {}),
  };
  if (!known) console.error(error);
  const headers = error instanceof Refusal ? error.headers : {};
  return {
    status,
    headers: {
      ...headers,
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
    },
    body,
  };
}

function send(res: ServerResponse, answer: Answer, traceId: string, head: boolean): void {
  const headers: Record<string, string> = { 'x-trace-id': traceId, ...answer.headers };
  let payload: string | undefined = answer.text;
  if (payload === undefined && answer.body !== undefined) {
    payload = JSON.stringify(answer.body);
    headers['content-type'] ??= 'application/json';
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(answer.status, headers);
  res.end(head || answer.status === 304 || answer.status === 204 ? undefined : payload);
}
