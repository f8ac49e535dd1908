/** Faults in how request bodies are taken: their size and their media type. */
import { omit } from './fault-proxy.js';
import { editJson, problemAnswer, type Json } from './fault-helpers.js';
import type { Fault } from './faults.js';

/** The contract's body limit (100 KiB). */
const BODY_LIMIT_BYTES = 100 * 1024;

export const oversizedBodyParsed: Fault = {
  name: 'oversized-body-parsed',
  description:
    'no body limit: a body over 100 KiB is parsed and judged like any other (400 for its unknown property), never 413',
  expectedCheck: 'payload_too_large',
  include: ['createUser'],
  create: () => ({
    response: (res, req) =>
      res.status === 413 && Buffer.byteLength(req.body) > BODY_LIMIT_BYTES
        ? editJson(
            problemAnswer(res, req, {
              kind: 'validation-failed',
              title: 'Request validation failed',
              status: 400,
              detail: 'The request body is invalid.',
            }),
            (problem) => ({
              ...(problem as Json),
              errors: [{ pointer: '#/padding', detail: 'unknown property' }],
            }),
          )
        : res,
  }),
};

export const textPlainBodyAccepted: Fault = {
  name: 'text-plain-body-accepted',
  description:
    'the Content-Type of a request body is not looked at: a JSON body sent as text/plain is taken (201), not 415',
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () => ({
    request: (req) =>
      req.body && /^text\/plain\b/i.test(req.headers['content-type'] ?? '')
        ? {
            ...req,
            headers: { ...omit(req.headers, 'content-type'), 'content-type': 'application/json' },
          }
        : req,
  }),
};
