import type { Readable } from 'node:stream';
import type { Request } from 'express';
import { MAX_BODY_BYTES } from '../api/body-parser.js';
import type { ApiRequest } from '../api/api-types.js';
import { HeaderMap } from '../api/header-map.js';

/**
 * Reads an Express request into the pipeline's transport-neutral form. The body is read in
 * full but only its first MAX_BODY_BYTES + 1 bytes are kept: an oversized body is flagged, not
 * refused here, so that the pipeline answers 413 in the contract's order (after 401/403/406).
 */
export async function toApiRequest(req: Request): Promise<ApiRequest> {
  const target = req.originalUrl;
  const q = target.indexOf('?');
  const headers = HeaderMap.fromNode(req.headers);
  const request = {
    method: req.method,
    path: q === -1 ? target : target.slice(0, q),
    query: q === -1 ? '' : target.slice(q + 1),
    headers,
    ...(req.socket.remoteAddress ? { clientAddress: req.socket.remoteAddress } : {}),
  };
  // HTTP/1.1: without Content-Length or Transfer-Encoding a request has no body (RFC 9112
  // 6.3), so there is no stream to wait for (most requests: every GET).
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
    return { ...request, body: null, bodyTooLarge: false };
  const { kept, total } = await readBody(req);
  return {
    ...request,
    body: total === 0 ? null : new Uint8Array(kept.length === 1 ? kept[0]! : Buffer.concat(kept)),
    bodyTooLarge: total > MAX_BODY_BYTES,
  };
}

/**
 * The body's chunks up to the first MAX_BODY_BYTES + 1 bytes, and its full length. Listens for
 * the stream's events directly: an async iterator over the request cost about a tenth of a small
 * POST's time (its setup and a promise per chunk).
 */
function readBody(req: Readable): Promise<{ kept: Buffer[]; total: number }> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    if (req.readableEnded) return resolve({ kept, total: 0 });
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
    // Closed before its end: the client went away mid-body.
    const onClose = () => done(new Error('aborted: the request closed before its body ended'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
