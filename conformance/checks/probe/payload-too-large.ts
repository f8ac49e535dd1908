import { statusProbe } from './expect-status.js';
import { bodyMediaType, validCall } from '../support/probe-support.js';

/** Comfortably over any sane JSON API's body limit (ours is 100 KiB), and still cheap on loopback. */
const OVERSIZED_BYTES = 1024 * 1024;
/** The oversized body, made once: the same text for every operation. */
let oversized: string | undefined;

/**
 * payload_too_large: operations that document 413 refuse a 1 MiB JSON body with 413 (RFC 9110
 * 15.5.14). The body is valid JSON in the operation's media type; only its size is wrong.
 */
export const payloadTooLarge = statusProbe({
  name: 'payload_too_large',
  description: 'A 1 MiB body is refused with 413 where the spec documents 413',
  status: 413,
  call(ctx, op, params) {
    const { body: _valid, ...call } = validCall(ctx, op, params);
    const rawBody = (oversized ??= JSON.stringify({ padding: 'x'.repeat(OVERSIZED_BYTES) }));
    return { ...call, rawBody, contentType: bodyMediaType(op) ?? 'application/json' };
  },
  sent: () => 'a 1 MiB body',
});
