import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { addressesPath } from '../support/path-methods.js';

/** A media type as listed: its essence (`type/subtype`) and parameters, lower-case. */
interface MediaType {
  essence: string;
  parameters: Map<string, string>;
}

/** The media types of a header such as `Accept-Patch` (RFC 5789 3.1), or a content key. */
export function mediaTypes(value: string): MediaType[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [essence, ...parameters] = entry.split(';').map((p) => p.trim());
      return {
        essence: (essence ?? '').toLowerCase(),
        parameters: new Map(
          parameters.filter(Boolean).map((p) => {
            const eq = p.indexOf('=');
            const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
            const raw = eq < 0 ? '' : p.slice(eq + 1).trim();
            return [name, raw.replace(/^"(.*)"$/, '$1').toLowerCase()];
          }),
        ),
      };
    });
}

/**
 * How `listed` strays from `declared`, in words, or undefined when both name the same media
 * types as a set. A parameter (a charset) counts only where both sides give it: the spec's
 * `application/json` is met by `application/json; charset=utf-8`, not by `...; charset=latin1`
 * where the spec says utf-8.
 */
export function mediaTypeListProblem(
  listed: MediaType[],
  declared: MediaType[],
): string | undefined {
  const fits = (l: MediaType, d: MediaType) =>
    l.essence === d.essence &&
    [...l.parameters].every(([name, value]) => (d.parameters.get(name) ?? value) === value);
  const missing = declared.filter((d) => !listed.some((l) => fits(l, d)));
  const extra = listed.filter((l) => !declared.some((d) => fits(l, d)));
  const said = [
    missing.length ? `missing ${missing.map((m) => m.essence).join(', ')}` : '',
    extra.length ? `not taken ${extra.map((m) => m.essence).join(', ')}` : '',
  ].filter(Boolean);
  return said.length ? said.join('; ') : undefined;
}

/** The response the spec documents for a status: exact, then `4XX`, then `default`. */
function documented(op: SpecOperation, status: number): OpenAPIV3.ResponseObject | undefined {
  return (
    op.responses[String(status)] ??
    op.responses[`${String(status)[0]}XX`] ??
    op.responses['default']
  );
}

function declaresAcceptPatch(op: SpecOperation, status: number): boolean {
  const headers = documented(op, status)?.headers ?? {};
  return Object.keys(headers).some((name) => name.toLowerCase() === 'accept-patch');
}

/** A 2xx to OPTIONS, or a 415 to PATCH: the answers RFC 5789 3.1 puts Accept-Patch on. */
function carriesAcceptPatch(exchange: Exchange): boolean {
  const method = exchange.request.method.toUpperCase();
  const status = exchange.response.status;
  return (
    (method === 'OPTIONS' && status >= 200 && status < 300) ||
    (method === 'PATCH' && status === 415)
  );
}

/**
 * `accept_patch_matches` (a response check): where the spec documents `Accept-Patch` on the
 * answer (an OPTIONS 2xx, a PATCH's 415), the header names exactly the media types the
 * path's PATCH takes (its requestBody's content types), as a set, in any order and letter
 * case. Judged whether or not the PATCH is in scope (the answer carrying the header is, and
 * the spec makes the header required there), unless the target was found not to implement the
 * PATCH (`operation_implemented`): then what it takes is nothing the spec says. An absent
 * header is the presence check's (`response_headers_conformance`).
 */
export const acceptPatchMatches: ResponseCheck = {
  kind: 'response',
  name: 'accept_patch_matches',
  description: "Accept-Patch names exactly the media types the path's PATCH takes",
  check(exchange, op, ctx): CheckFailure[] {
    const value = exchange.headers.get('accept-patch');
    if (value === null || !carriesAcceptPatch(exchange)) return [];
    if (!declaresAcceptPatch(op, exchange.response.status) || !addressesPath(exchange, op.path))
      return [];
    const patch = ctx.allOperations.find((o) => o.path === op.path && o.method === 'patch');
    if (!patch || ctx.scope.missingReason(patch) !== undefined) return [];
    const content = Object.keys(patch.requestBody?.content ?? {});
    if (content.length === 0) return [];
    const problem = mediaTypeListProblem(mediaTypes(value), content.flatMap(mediaTypes));
    if (problem === undefined) return [];
    return [
      {
        message: `Accept-Patch of a ${exchange.response.status} to ${exchange.request.method} ${op.path} does not name the media types PATCH takes (${problem})`,
        expected: `Accept-Patch: ${content.join(', ')}`,
        actual: `Accept-Patch: ${value}`,
      },
    ];
  },
};
