import { readFile } from 'node:fs/promises';
import type { OpenAPIV3 } from 'openapi-types';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { API_BASE, apiRelativePath } from '../../core/pipeline/api-paths.js';
import { renderProblem } from '../../core/pipeline/problem-response.js';
import { requestIdOf } from '../../core/pipeline/request-id.js';
import { ApiProblem } from '../../core/domain/api-problem.js';
import { answerClientError } from '../../node-runtime/client-error.js';
import { isDocsPath } from '../../node-runtime/is-docs-path.js';
import { coherentAnswer } from './coherent-problem.js';
import {
  startPrism,
  type PrismServer,
  type StartPrismOptions,
} from '../../node-runtime/start-prism.js';
import { HOP_BY_HOP } from '../../node-runtime/hop-by-hop.js';
import { lazyDocsHandler } from '../../node-runtime/lazy-docs-handler.js';
import { drainServer, serverOrigin } from '../../node-runtime/drain-server.js';

export interface PrismMockOptions {
  /** The description to mock (a file). */
  specPath: string;
  /** Port of the mock; 0 picks a free one (default 4010). */
  port?: number;
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /** Bodies generated from the schemas instead of the examples. */
  dynamic?: boolean;
  /** How long to wait for Prism (default 30 s). */
  startTimeoutMs?: number;
}

export interface RunningPrismMock {
  /** Its origin; the API is at `${url}/api/v1` (and `${url}/api`), as on the reference server. */
  url: string;
  /** Where the API is below `url`: `/api/v1` for the bundled contract, else the first server's path. */
  basePath: string;
  /** The Prism behind it, on a port of its own (for diagnostics: `prism.output()`). */
  prism: PrismServer;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Prism's spec-only mock behind a front that gives it the reference server's URL layout and
 * the contract's error answers (decision 0059): the API under `/api/v1` (`/api` an alias),
 * `/openapi.json`, `/openapi.yaml`, `/healthz`, `/docs` and `GET /` beside it, so switching
 * `apikit mock --engine` changes no client's base URL. Prism matches the description's paths
 * without the servers' base path, so the front strips it; every problem Prism answers is made
 * coherent (`coherentAnswer`).
 *
 * @example
 * const mock = await startPrismMock({ specPath: 'spec/openapi.yaml', port: 0 });
 * await fetch(`${mock.url}/api/v1/users`, { headers: { Authorization: 'Bearer x' } });
 * await mock.close();
 */
export async function startPrismMock(options: PrismMockOptions): Promise<RunningPrismMock> {
  const host = options.host ?? '127.0.0.1';
  const prismOptions: StartPrismOptions = {
    specPath: options.specPath,
    mode: 'mock',
    dynamic: options.dynamic ?? false,
    ...(options.startTimeoutMs ? { startTimeoutMs: options.startTimeoutMs } : {}),
  };
  const [prism, contract] = await Promise.all([
    startPrism(prismOptions),
    contractDocuments(options.specPath).catch((error: unknown) => error as Error),
  ]);
  if (contract instanceof Error) {
    await prism.close();
    throw contract;
  }
  const { documents, basePath } = contract;
  // The bundled contract's base (`/api/v1`, with the `/api` alias), else the base path of the
  // description's first server, as a client of that API would address it.
  const relativeOf = (path: string): string | undefined => {
    if (basePath === API_BASE) return apiRelativePath(path);
    if (basePath === '') return path;
    return path === basePath || path.startsWith(basePath + '/')
      ? path.slice(basePath.length) || '/'
      : undefined;
  };
  const prismUrl = new URL(prism.url);
  const docs = lazyDocsHandler();

  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const path = target.split('?')[0] || '/';
    const query = target.includes('?') ? target.slice(target.indexOf('?')) : '';
    const sent = req.headers['x-request-id'];
    const requestId = requestIdOf(typeof sent === 'string' ? sent : undefined);
    const problem = (p: ApiProblem, instance = path) => {
      const rendered = renderProblem(p, instance, requestId);
      res.writeHead(rendered.status, {
        ...rendered.headers,
        'X-Request-Id': requestId,
        'Access-Control-Allow-Origin': '*',
      });
      res.end(method === 'HEAD' ? undefined : rendered.body);
    };
    if (isDocsPath(path)) return docs(req, res);
    const open = documents.get(path);
    if (open) {
      if (method !== 'GET' && method !== 'HEAD')
        return problem(
          new ApiProblem('method-not-allowed', `${method} is not allowed on ${path}`, {
            headers: { Allow: 'GET, HEAD' },
          }),
        );
      res.writeHead(200, {
        'Content-Type': open.type,
        'Content-Length': Buffer.byteLength(open.body),
        'Cache-Control': 'no-cache',
        'X-Request-Id': requestId,
        'Access-Control-Allow-Origin': '*',
      });
      return res.end(method === 'HEAD' ? undefined : open.body);
    }
    const relative = relativeOf(path);
    if (relative === undefined)
      return problem(new ApiProblem('not-found', `No resource at ${path}`));
    // The problem's instance names the canonical path, as the reference server's do.
    const instance = basePath + relative;
    void readBody(req).then(
      (body) =>
        forwardToPrism(req, body, prismUrl, relative + query, (answer) => {
          const coherent = coherentAnswer(answer, { path: instance, requestId });
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(answer.headers))
            if (!HOP_BY_HOP.has(name) && name !== 'content-length') headers[name] = value;
          for (const [name, value] of Object.entries(coherent.headers))
            headers[name.toLowerCase()] = value;
          headers['content-length'] = String(coherent.body.length);
          res.writeHead(coherent.status, headers);
          res.end(method === 'HEAD' ? undefined : coherent.body);
        }).catch((error: Error) =>
          problem(
            new ApiProblem(
              'service-unavailable',
              `the Prism mock did not answer: ${error.message}`,
            ),
            instance,
          ),
        ),
      () =>
        problem(
          new ApiProblem('payload-too-large', `bodies over ${MAX_BODY_BYTES} bytes are refused`),
          instance,
        ),
    );
  });
  server.on('clientError', answerClientError);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 4010, host, () => {
        server.removeListener('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await prism.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    url: serverOrigin(server, host),
    basePath,
    prism,
    close() {
      closing ??= (async () => {
        await drainServer(server);
        await prism.close();
      })();
      return closing;
    },
  };
}

/**
 * `/openapi.json`, `/openapi.yaml` (when the file is YAML) and `/healthz`, made once; and the
 * API's base path: that of the first server's URL, its variables at their defaults.
 */
async function contractDocuments(specPath: string): Promise<{
  documents: Map<string, { type: string; body: string }>;
  basePath: string;
}> {
  const [{ bundleSpec }, text] = await Promise.all([
    import('../../spec/load-spec.js'),
    readFile(specPath, 'utf8'),
  ]);
  const doc = await bundleSpec(specPath);
  const documents = new Map([
    ['/openapi.json', { type: 'application/json', body: JSON.stringify(doc) }],
    ['/healthz', { type: 'application/json', body: JSON.stringify({ status: 'ok' }) }],
  ]);
  if (!text.trimStart().startsWith('{'))
    documents.set('/openapi.yaml', { type: 'application/yaml', body: text });
  return { documents, basePath: serverBasePath(doc.servers?.[0]) };
}

/** `/api/v1` of `{base_url}/api/v1`; `''` for no server or a root one. */
export function serverBasePath(server: OpenAPIV3.ServerObject | undefined): string {
  if (!server) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) =>
    String(server.variables?.[name]?.default ?? ''),
  );
  let path: string;
  try {
    path = new URL(url, 'http://base.invalid').pathname;
  } catch {
    return '';
  }
  return path.replace(/\/+$/, '');
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function forwardToPrism(
  req: IncomingMessage,
  body: Buffer,
  prism: URL,
  path: string,
  done: (answer: { status: number; headers: Record<string, string>; body: Buffer }) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (
        value !== undefined &&
        !HOP_BY_HOP.has(name) &&
        name !== 'host' &&
        name !== 'content-length'
      )
        headers[name] = value;
    if (body.length > 0) headers['content-length'] = String(body.length);
    const outgoing = httpRequest(
      {
        hostname: prism.hostname.replace(/^\[|\]$/g, ''),
        port: prism.port,
        // Prism has no HEAD (405 wherever the description says GET): a GET, its body dropped.
        method: req.method === 'HEAD' ? 'GET' : req.method,
        path,
        headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.once('error', reject);
        answer.once('end', () => {
          const flat: Record<string, string> = {};
          for (const [name, value] of Object.entries(answer.headers))
            if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
          done({ status: answer.statusCode ?? 502, headers: flat, body: Buffer.concat(chunks) });
          resolve();
        });
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}
