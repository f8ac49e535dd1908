import type { components } from '../../spec/openapi-types.js';

/** A problem type URI without its prefix (distributes over a union of URIs). */
type SlugOf<Uri> = Uri extends `urn:apikit:problem:${infer Slug}` ? Slug : never;

/** The kinds of problem the spec's Problem.type enum lists. */
type SpecProblemSlug = SlugOf<components['schemas']['Problem']['type']>;

/**
 * Every kind of problem the API reports, with its one HTTP status and one fixed title
 * (RFC 9457). The kinds are the spec's (a missing or an unknown one does not compile); the
 * statuses and titles are the spec's table of problem types, which problem-types.test.ts
 * compares with this one, row by row, both ways.
 */
export const PROBLEM_TYPES = {
  'validation-failed': { status: 400, title: 'Request validation failed' },
  'malformed-json': { status: 400, title: 'Malformed JSON body' },
  unauthenticated: { status: 401, title: 'Authentication required' },
  'invalid-token': { status: 401, title: 'Invalid access token' },
  'invalid-credentials': { status: 401, title: 'Invalid credentials' },
  'invalid-refresh-token': { status: 401, title: 'Invalid refresh token' },
  forbidden: { status: 403, title: 'Forbidden' },
  'account-blocked': { status: 403, title: 'Account blocked' },
  'not-found': { status: 404, title: 'Resource not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'not-acceptable': { status: 406, title: 'Not acceptable' },
  'duplicate-email': { status: 409, title: 'Email already in use' },
  'invalid-state-transition': { status: 409, title: 'Invalid state transition' },
  'idempotency-key-in-use': { status: 409, title: 'Idempotency key in use' },
  conflict: { status: 409, title: 'Conflict' },
  'precondition-failed': { status: 412, title: 'Precondition failed' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'unknown-reference': { status: 422, title: 'Unknown reference' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency key reused' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'header-fields-too-large': { status: 431, title: 'Request header fields too large' },
  'internal-error': { status: 500, title: 'Internal server error' },
  'not-implemented': { status: 501, title: 'Not implemented' },
  'service-unavailable': { status: 503, title: 'Service unavailable' },
} as const satisfies Record<SpecProblemSlug, { status: number; title: string }>;

export type ProblemSlug = keyof typeof PROBLEM_TYPES;

/** The absolute `type` URI of a problem kind, e.g. `urn:apikit:problem:not-found`. */
export function problemTypeUri(slug: ProblemSlug): string {
  return `urn:apikit:problem:${slug}`;
}
