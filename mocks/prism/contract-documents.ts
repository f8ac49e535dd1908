import { readFile } from 'node:fs/promises';
import type { OpenAPIV3 } from 'openapi-types';

/** A document the front serves itself: its media type and body. */
export type ServedDocument = { type: string; body: string };

/**
 * `/openapi.json`, `/openapi.yaml` (when the file is YAML), `/healthz` and `/readyz`, made once; and the
 * API's base path: that of the first server's URL, its variables at their defaults.
 */
export async function contractDocuments(specPath: string): Promise<{
  documents: Map<string, ServedDocument>;
  basePath: string;
  /** The query as Prism should see it (decision 0102). */
  foldQuery: (query: string) => string;
}> {
  const [{ bundleSpec }, { foldRepeatedQuery }, text] = await Promise.all([
    import('../../spec/load-spec.js'),
    import('../../spec/fold-repeated-query.js'),
    readFile(specPath, 'utf8'),
  ]);
  const doc = await bundleSpec(specPath);
  const documents = new Map([
    ['/openapi.json', { type: 'application/json', body: JSON.stringify(doc) }],
    ['/healthz', { type: 'application/json', body: JSON.stringify({ status: 'ok' }) }],
    ['/readyz', { type: 'application/json', body: JSON.stringify({ status: 'ready' }) }],
  ]);
  if (!text.trimStart().startsWith('{'))
    documents.set('/openapi.yaml', { type: 'application/yaml', body: text });
  return {
    documents,
    basePath: serverBasePath(doc.servers?.[0]),
    foldQuery: foldRepeatedQuery(doc),
  };
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
