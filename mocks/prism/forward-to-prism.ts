import { request as httpRequest, type IncomingMessage } from 'node:http';
import { HOP_BY_HOP } from '../../node-runtime/hop-by-hop.js';

/** Prism refuses larger bodies; the front refuses them first, with the contract's 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The whole request body; rejects past `MAX_BODY_BYTES`. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Prism's answer, read whole. */
export interface PrismAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends the request to Prism at `path` and hands `done` its whole answer. */
export function forwardToPrism(
  req: IncomingMessage,
  body: Buffer,
  prism: URL,
  path: string,
  done: (answer: PrismAnswer) => void,
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
