import { request } from 'undici';
import { parseYaml } from '../spec/parse-yaml.js';
import { loadBundledSpec } from '../spec/bundled-spec.js';
import { deepFreeze } from '../spec/deep-freeze.js';
import { loadSpec, type OpenApiDocument } from '../spec/load-spec.js';

/** How long fetching a description from a URL may take. */
const SPEC_FETCH_TIMEOUT_MS = 15_000;

/**
 * The description to hold the target to: an http(s) URL the user named (fetched with undici,
 * JSON or YAML, relative `$ref`s resolved against the URL), a file (loaded, validated and
 * dereferenced by swagger-parser), or by default the bundled contract from its precompiled
 * `spec/openapi.json`, as the server starts from it (decision 0027).
 *
 * @example
 * const spec = await loadRunSpec('http://127.0.0.1:3000/openapi.json');
 */
export async function loadRunSpec(source: string | undefined): Promise<OpenApiDocument> {
  if (source === undefined) return (await loadBundledSpec()).spec;
  if (!/^https?:\/\//i.test(source)) return loadSpec(source);
  const document = await fetchDocument(source);
  const parser = (await import('@apidevtools/swagger-parser')).default;
  const api: unknown = await parser.validate(source, document as never, {});
  return deepFreeze(api as OpenApiDocument);
}

async function fetchDocument(url: string): Promise<unknown> {
  let text: string;
  let status: number;
  try {
    const res = await request(url, {
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.1' },
      headersTimeout: SPEC_FETCH_TIMEOUT_MS,
      bodyTimeout: SPEC_FETCH_TIMEOUT_MS,
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new Error(`cannot fetch ${url}: ${code}`);
  }
  if (status < 200 || status >= 300)
    throw new Error(`cannot fetch ${url}: it answered ${status}: ${text.slice(0, 200)}`);
  try {
    // YAML 1.2 is a superset of JSON: one parser reads both.
    return parseYaml(text);
  } catch (error) {
    throw new Error(`${url} is neither JSON nor YAML: ${(error as Error).message}`);
  }
}
