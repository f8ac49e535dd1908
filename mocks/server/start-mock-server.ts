import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '../../core/pipeline/body-parser.js';
import { requestIdOf } from '../../core/pipeline/request-id.js';
import { ApiProblem } from '../../core/domain/api-problem.js';
import { answerClientError } from '../../node-runtime/client-error.js';
import { isDocsPath } from '../../node-runtime/is-docs-path.js';
import { readNodeBody } from '../../node-runtime/read-node-body.js';
import { resolveServerConfig, type ServerConfig } from '../../node-runtime/server-config.js';
import {
  ContractViolationError,
  createMockApi,
  type Latency,
  type MockApiOptions,
  type MockApi,
  type MockAnswer,
  type MockOutcome,
} from '../create-mock-api.js';
import { internalError, sendProblem } from './send-problem.js';
import { violationDetail } from '../contract-violation-error.js';
import { lazyDocsHandler } from '../../node-runtime/lazy-docs-handler.js';
import { drainServer } from '../../node-runtime/drain-server.js';
import { listenServer } from '../../node-runtime/listen-server.js';

/** How to serve the MSW mocks over HTTP; every field has a default. */
export interface MockServerOptions {
  /** TCP port; 0 picks a free one (default 3000). */
  port?: number;
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /** Delay of every answer in ms, or a [min, max] range drawn per request (default none). */
  latency?: Latency;
  /**
   * Seed: the demo data set (default), only the two login accounts, or a data set of your own
   * (docs/data-format.md; checked against the contract first).
   */
  data?: MockApiOptions['data'];
  /** `off`: requests without a token act as the admin (default enforce). */
  auth?: 'enforce' | 'off';
  /** Passwords and signing secret: default APIKIT_ADMIN_PASSWORD / APIKIT_USER_PASSWORD /
   * APIKIT_JWT_SECRET, else the documented demo passwords and a random secret (as `serve`). */
  adminPassword?: string;
  userPassword?: string;
  jwtSecret?: string;
  /** PBKDF2 iterations of the demo accounts' hashes (lower in tests). */
  passwordIterations?: number;
  /** Told about every answer the mocks refused to send; default: one line on stderr. */
  onViolation?: (error: ContractViolationError, request: { method: string; path: string }) => void;
}

/** The MSW mocks listening on a real socket. */
export interface RunningMockServer {
  /** Its origin, e.g. `http://127.0.0.1:3000` (the API is under `/api/v1`). */
  url: string;
  /** The mock API behind it: store, reset, overrides, recorded violations. */
  mock: MockApi;
  /** The resolved configuration (passwords, secret, data set, warnings), as `serve` has it. */
  config: ServerConfig;
  /** Stops listening, lets in-flight requests finish (bounded), then closes the store. */
  close(): Promise<void>;
}

/** Methods the Fetch standard refuses to put in a `Request` (new Request throws on them). */
const FORBIDDEN_FETCH_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * Serves `createMockApi`'s answers over HTTP. The pipeline behind the handlers already
 * answers CORS, the open routes (`/healthz`, `/openapi.json`, `/openapi.yaml`) and every error
 * of the contract; this is only the transport.
 *
 * A thin node:http adapter around `mock.answer`, not `@mswjs/http-middleware`: decision 0072.
 *
 * @example
 * const server = await startMockServer({ port: 0, latency: [50, 150] });
 * await fetch(`${server.url}/healthz`);
 * await server.close();
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<RunningMockServer> {
  // The same APIKIT_* resolution and safety rules as `apikit serve` (no demo passwords on a
  // non-loopback address, a secret of >= 32 bytes); throws ServerConfigError.
  const config = resolveServerConfig({
    memory: true,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.data !== undefined ? { data: options.data } : {}),
    ...(options.jwtSecret !== undefined ? { jwtSecret: options.jwtSecret } : {}),
    ...(options.adminPassword !== undefined ? { adminPassword: options.adminPassword } : {}),
    ...(options.userPassword !== undefined ? { userPassword: options.userPassword } : {}),
  });
  const mock = createMockApi({
    data: config.data,
    jwtSecret: config.jwtSecret,
    demoPasswords: { admin: config.adminPassword, user: config.userPassword },
    auth: options.auth ?? 'enforce',
    ...(options.latency !== undefined ? { latency: options.latency } : {}),
    ...(options.passwordIterations !== undefined
      ? { passwordIterations: options.passwordIterations }
      : {}),
  });
  await mock.ready;
  const onViolation =
    options.onViolation ??
    ((error, request) =>
      process.stderr.write(
        `contract violation: ${request.method} ${request.path}: ${error.message}\n`,
      ));

  // The /docs page and `GET /`, as `serve` has them: Express loaded on the first such request.
  const docs = lazyDocsHandler();
  const server = createServer((req, res) => {
    if (isDocsPath(pathOf(req.url))) return docs(req, res);
    serve(req, res, mock, onViolation).catch((error: unknown) => {
      // A fault of the adapter itself (a broken socket mid-answer): never leave it hanging.
      process.stderr.write(`mock server: ${error instanceof Error ? error.message : error}\n`);
      if (!res.headersSent) {
        const id = requestIdOf(req.headers['x-request-id'] as string | undefined);
        sendProblem(
          res,
          req.headers.origin,
          req.method ?? 'GET',
          pathOf(req.url),
          id,
          internalError(id),
        );
      } else res.destroy();
    });
  });
  // Methods Node's parser does not know (BREW) and malformed HTTP: problem+json, as `serve`.
  server.on('clientError', answerClientError);
  const url = await listenServer(server, config.port, config.host);
  let closing: Promise<void> | undefined;
  return {
    url,
    mock,
    config,
    close() {
      closing ??= (async () => {
        await drainServer(server);
        await (await mock.store()).close();
      })();
      return closing;
    },
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  mock: MockApi,
  onViolation: NonNullable<MockServerOptions['onViolation']>,
): Promise<void> {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const path = pathOf(target);
  const origin = req.headers.origin;
  // One request id for the pipeline and this adapter's own answers.
  const sent = req.headers['x-request-id'];
  const requestId = requestIdOf(typeof sent === 'string' ? sent : undefined);

  // Bytes as they came, bounded: MAX_BODY_BYTES + 1 are enough for the pipeline to answer 413
  // in the contract's order, read as the Express adapter reads them.
  const { kept: chunks, total } = await readNodeBody(req);
  const kept = Math.min(total, MAX_BODY_BYTES + 1);

  if (FORBIDDEN_FETCH_METHODS.has(method.toUpperCase())) {
    // The mocks answer Fetch Requests, which cannot carry these methods.
    return sendProblem(
      res,
      origin,
      method,
      path,
      requestId,
      new ApiProblem('not-implemented', `The method ${method} is not implemented by this server`),
    );
  }

  // Every header line as received (repeated ones appended), the request id set once: the name
  // and value pairs straight from Node's parser, copied once by the Request.
  const raw = req.rawHeaders;
  const headers: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.toLowerCase() !== 'x-request-id') headers.push([name, raw[i + 1] as string]);
  }
  headers.push(['X-Request-Id', requestId]);
  const hasBody = kept > 0 && method !== 'GET' && method !== 'HEAD';
  // The origin the client addressed is irrelevant to the mocks (they answer any origin);
  // the target is appended, never resolved, so `//x` stays a path.
  const request = new Request(`http://mock.invalid${target.startsWith('/') ? target : '/'}`, {
    method,
    headers,
    ...(hasBody
      ? { body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES + 1), duplex: 'half' }
      : {}),
  } as RequestInit);

  // The mocks' answer itself, not a Response: its bytes are not put into a body stream only
  // to be read back out of it (decisions 0029, 0064).
  let answer: MockOutcome;
  try {
    answer = await mock.answer(request);
  } catch (error) {
    if (error instanceof ContractViolationError) {
      onViolation(error, { method, path });
      return sendProblem(
        res,
        origin,
        method,
        path,
        requestId,
        new ApiProblem('internal-error', ''),
        {
          detail: violationDetail(error),
          violations: error.violations.map((v) => v.message),
        },
      );
    }
    process.stderr.write(
      `mock server: ${method} ${path}: ${error instanceof Error ? error.stack : error}\n`,
    );
    return sendProblem(res, origin, method, path, requestId, internalError(requestId));
  }
  if (!answer) {
    // Not an API path nor an open route: the mocks let it pass; answer as the server does.
    return sendProblem(
      res,
      origin,
      method,
      path,
      requestId,
      new ApiProblem('not-found', `No resource at ${path}`),
    );
  }
  if (answer === 'network-error') {
    // A network error, as an override asked.
    res.destroy();
    return;
  }
  writeAnswer(res, method, answer);
}

/** The mocks' answer as they made it: its status, headers and body text, written out once. */
function writeAnswer(res: ServerResponse, method: string, answer: MockAnswer): void {
  res.statusCode = answer.status;
  res.statusMessage = STATUS_CODES[answer.status] ?? '';
  answer.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('Set-Cookie', cookies);
  // HEAD, 204 and 304 carry no body (Node drops one for HEAD anyway).
  res.end(method === 'HEAD' ? undefined : (answer.body ?? undefined));
}

function pathOf(target: string | undefined): string {
  const path = (target ?? '/').split('?')[0] ?? '/';
  return path.startsWith('/') ? path : '/';
}
