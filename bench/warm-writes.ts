import { UNIQUE_TOKEN } from './load-spec.js';

/** Options of {@link warmWrites}. */
export interface WarmWritesOptions {
  /** Where a POST creates a record: `http://127.0.0.1:PORT/api/v1/users`, `.../users`. */
  createUrl: string;
  /** Headers of both requests (a bearer token where the subject wants one). */
  headers: Record<string, string>;
  /** The POST's body; every `{{n}}` becomes a number unique to the request. */
  body: string;
  /** Creates (each followed by its delete) in flight at once. */
  connections: number;
  /** Create-and-delete pairs at most. */
  pairs: number;
  /** No pair is started after this long. */
  maxSeconds: number;
}

/** What the warmup did, for the log. */
export interface WarmWritesResult {
  pairs: number;
  seconds: number;
}

/**
 * Warms a subject's write path up without growing its store: records created with POST and
 * deleted again, `connections` pairs at a time, until `pairs` are done or `maxSeconds` have
 * passed, then waits for those in flight. A write measurement can then start from a warm
 * process (V8's compiled code, caches) at the very store size it is meant to measure: a warmup
 * of plain POSTs would grow the store it is about to measure (decision 0038). The created
 * record is found by the answer's `Location` (the contract) or its body's `id` (json-server).
 * Any other answer than a 2xx stops the warmup with an error naming it.
 *
 * @example
 * await warmWrites({ createUrl: `${url}/api/v1/users`, headers, body, connections: 50, pairs: 1000, maxSeconds: 2 });
 */
export async function warmWrites(options: WarmWritesOptions): Promise<WarmWritesResult> {
  const started = performance.now();
  const deadline = started + options.maxSeconds * 1000;
  const headers = { ...options.headers, 'Content-Type': 'application/json' };
  let next = 0;
  let done = 0;
  const pair = async (n: number) => {
    const body = options.body.replaceAll(UNIQUE_TOKEN, `${process.pid}${Date.now()}${n}`);
    const created = await fetch(options.createUrl, { method: 'POST', headers, body });
    const text = await created.text();
    if (created.status < 200 || created.status >= 300)
      throw new Error(`warmup: POST ${options.createUrl} answered ${created.status}: ${text}`);
    const target = createdUrl(options.createUrl, created.headers.get('location'), text);
    const deleted = await fetch(target, { method: 'DELETE', headers: options.headers });
    await deleted.arrayBuffer();
    if (deleted.status < 200 || deleted.status >= 300)
      throw new Error(`warmup: DELETE ${target} answered ${deleted.status}`);
    done++;
  };
  const worker = async () => {
    while (next < options.pairs && performance.now() < deadline) await pair(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, options.connections) }, worker));
  return { pairs: done, seconds: (performance.now() - started) / 1000 };
}

/** The URL of the record a POST to `createUrl` made: its Location, else `createUrl/<body.id>`. */
export function createdUrl(createUrl: string, location: string | null, body: string): string {
  if (location) return new URL(location, createUrl).href;
  let id: unknown;
  try {
    id = (JSON.parse(body) as { id?: unknown }).id;
  } catch {
    id = undefined;
  }
  if (typeof id !== 'string' && typeof id !== 'number')
    throw new Error(`warmup: the answer to POST ${createUrl} names no created record`);
  return `${createUrl}/${encodeURIComponent(String(id))}`;
}
