import type { SpecOperation } from '../../spec/operations.js';
import { pathParameters } from '../http/path-template.js';
import type { RunContext } from '../run-context.js';

/** An operation of the spec and the path parameters a URL fills it with. */
export interface OperationAt {
  op: SpecOperation;
  path: Record<string, string>;
  /** The URL's query, without `?` (empty when none). */
  rawQuery: string;
}

/**
 * The GET operation a URL the target handed out (a Location, a Link) addresses: resolved
 * against `base`, on the run's origin and under its base path, matching one path template.
 * A literal template wins over one with more parameters (`/users/me` over `/users/{id}`).
 */
export function getOperationAt(
  ctx: RunContext,
  url: string,
  base: string,
): OperationAt | undefined {
  let resolved: URL;
  try {
    resolved = new URL(url, base);
  } catch {
    return undefined;
  }
  const { origin, basePath } = ctx.client;
  if (resolved.origin !== origin || !resolved.pathname.startsWith(basePath)) return undefined;
  const path = resolved.pathname.slice(basePath.length);
  const matches = ctx.allOperations
    .filter((op) => op.method === 'get')
    .map((op) => ({ op, path: pathParameters(op.path, path) }))
    .filter((m): m is { op: SpecOperation; path: Record<string, string> } => m.path !== undefined)
    .sort((a, b) => Object.keys(a.path).length - Object.keys(b.path).length);
  const found = matches[0];
  return found && { ...found, rawQuery: resolved.search.slice(1) };
}
