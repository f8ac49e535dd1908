import type { NodeHandler } from './docs-handler.js';

/**
 * `docsHandler` for the servers beside the reference server (both `apikit mock` engines),
 * loaded on the first /docs or `GET /` request: Express and the page's modules are not what a
 * mock's start should pay for. A failed load is answered, never left hanging.
 */
export function lazyDocsHandler(): NodeHandler {
  let docs: Promise<NodeHandler> | undefined;
  return (req, res) => {
    docs ??= import('./docs-handler.js').then((m) => m.docsHandler());
    docs.then(
      (handle) => handle(req, res),
      (error: unknown) => {
        process.stderr.write(`/docs: ${error instanceof Error ? error.message : error}\n`);
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('the /docs page failed to load');
      },
    );
  };
}
