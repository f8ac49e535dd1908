import { request } from 'node:http';

/** One request as a hardening test sends it. */
export interface HttpCall {
  method: string;
  /** Absolute URL; its path is sent byte for byte (no `./` or `%` normalisation as fetch does). */
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Source address of the client socket (e.g. `127.0.0.2`), to act as another client. */
  localAddress?: string;
}

/** A response as it came over the wire. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  json<T = unknown>(): T;
}

/** A deadline for every call: a hung server fails the test instead of stalling it. */
export const CALL_TIMEOUT_MS = 10_000;

/**
 * Sends one request on a fresh connection (no keep-alive, no agent) and reads the whole
 * answer. `onAnswer` sees every exchange (the leak scan collects them).
 *
 * @example
 * const res = await httpCall({ method: 'GET', url: `${api}/users/1`, localAddress: '127.0.0.2' });
 */
export function httpCall(
  call: HttpCall,
  onAnswer?: (call: HttpCall, answer: HttpAnswer) => void,
): Promise<HttpAnswer> {
  const { origin, pathname, search } = splitUrl(call.url);
  const target = new URL(origin);
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        method: call.method,
        path: pathname + search,
        headers: call.headers ?? {},
        agent: false,
        timeout: CALL_TIMEOUT_MS,
        ...(call.localAddress ? { localAddress: call.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
          }
          const text = Buffer.concat(chunks).toString('utf8');
          const answer: HttpAnswer = {
            status: res.statusCode ?? 0,
            headers,
            text,
            json: <T>() => JSON.parse(text) as T,
          };
          onAnswer?.(call, answer);
          resolve(answer);
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${call.method} ${call.url}: timed out`)));
    req.on('error', reject);
    req.end(call.body);
  });
}

/** Splits without normalising the path (the WHATWG URL parser would resolve `./` and `../../hardening`). */
function splitUrl(url: string): { origin: string; pathname: string; search: string } {
  const match = /^(https?:\/\/[^/]+)(\/[^?]*)?(\?.*)?$/.exec(url);
  if (!match) throw new Error(`not an absolute http URL: ${url}`);
  return { origin: match[1] as string, pathname: match[2] ?? '/', search: match[3] ?? '' };
}
