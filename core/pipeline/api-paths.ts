/** The canonical base of the API; `/api` is an alias of it (the newest version). */
export const API_BASE = '/api/v1';

/**
 * Maps a request path to the path below the API base, or undefined when it is not under the
 * API at all or names an unknown version (`/api/v2/...`): both are 404.
 *
 * @example
 * apiRelativePath('/api/v1/users/1'); // '/users/1'
 * apiRelativePath('/api/users/1');    // '/users/1'
 * apiRelativePath('/api/v2/users');   // undefined
 */
export function apiRelativePath(path: string): string | undefined {
  if (path.startsWith(API_BASE + '/')) return path.slice(API_BASE.length);
  if (!path.startsWith('/api/')) return undefined;
  const rest = path.slice('/api'.length);
  // `/api/v7/...` is a version segment of a version this server does not have.
  if (/^\/v\d+(\/|$)/.test(rest)) return undefined;
  return rest;
}
