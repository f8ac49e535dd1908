import type { Request } from 'express';
import { MAX_BODY_BYTES } from '../../core/pipeline/body-parser.js';
import type { ApiRequest } from '../../core/pipeline/api-types.js';
import { HeaderMap } from '../../core/pipeline/header-map.js';
import { readNodeBody } from '../../node-runtime/read-node-body.js';

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
    // req.ip: the socket's address, or the client's as a trusted proxy forwarded it.
    ...(req.ip ? { clientAddress: req.ip } : {}),
  };
  const { kept, total } = await readNodeBody(req);
  return {
    ...request,
    body: total === 0 ? null : new Uint8Array(kept.length === 1 ? kept[0]! : Buffer.concat(kept)),
    bodyTooLarge: total > MAX_BODY_BYTES,
  };
}
