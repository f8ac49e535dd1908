import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from '../core/pipeline/body-parser.js';

/** A request body as read off the socket: the chunks up to the first MAX_BODY_BYTES + 1 bytes. */
export interface NodeBody {
  /** Whole chunks, until more than MAX_BODY_BYTES are kept (enough to tell 413 apart). */
  kept: Buffer[];
  /** Every byte that came, kept or not. */
  total: number;
}

/**
 * Reads a Node request's body in full but keeps only its start: an oversized body is the
 * pipeline's to refuse (413, after 401/403/406 in the contract's order), never buffered whole.
 * Shared by the server's Express adapter and `apikit mock`'s HTTP adapter. Without
 * Content-Length or Transfer-Encoding an HTTP/1.1 request has no body (RFC 9112, 6.3), so
 * there is nothing to wait for (every GET). Listens for the stream's events directly: an async
 * iterator cost about a tenth of a small POST's time (its setup and a promise per chunk).
 * Rejects when the request closes before its body ended (the client went away).
 *
 * @example
 * const { kept, total } = await readNodeBody(req);
 */
export function readNodeBody(req: IncomingMessage): Promise<NodeBody> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    const framed =
      req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    if (!framed || req.readableEnded) return resolve({ kept, total: 0 });
    let keptBytes = 0;
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (keptBytes <= MAX_BODY_BYTES) {
        kept.push(chunk);
        keptBytes += chunk.length;
      }
    };
    const done = (error?: Error) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error) reject(error);
      else resolve({ kept, total });
    };
    const onEnd = () => done();
    const onError = (error: Error) => done(error);
    const onClose = () => done(new Error('aborted: the request closed before its body ended'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
