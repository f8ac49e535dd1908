import { createServer } from 'node:http';
import { answerClientError } from '../../node-runtime/client-error.js';
import {
  startPrism,
  type PrismServer,
  type StartPrismOptions,
} from '../../node-runtime/start-prism.js';
import { drainServer } from '../../node-runtime/drain-server.js';
import { listenServer } from '../../node-runtime/listen-server.js';
import { contractDocuments } from './contract-documents.js';
import { createPrismFront } from './create-prism-front.js';

export { serverBasePath } from './contract-documents.js';

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
  const { documents, basePath, foldQuery } = contract;
  const server = createServer(
    createPrismFront({ documents, basePath, foldQuery, prismUrl: new URL(prism.url) }),
  );
  server.on('clientError', answerClientError);
  const url = await listenServer(server, options.port ?? 4010, host).catch(async (error) => {
    await prism.close();
    throw error;
  });
  let closing: Promise<void> | undefined;
  return {
    url,
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
