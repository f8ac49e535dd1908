import type { SpecOperation } from '../spec/operations.js';

/**
 * One `--include`/`--exclude` entry: an operationId, a tag, or, starting with `/` (optionally
 * after a method, `GET /users/*`), a glob over the spec's path templates: `*` is any text within
 * one segment, `**` as a whole segment is any number of segments (none too: `/users/**` is
 * `/users` and everything below it), and a `{name}` segment matches any parameter segment of
 * the template, whatever the name.
 *
 * @example
 * const byPath = operationPattern('/users/*');
 * byPath(getUser); // true for GET /users/{id}, false for GET /users and /users/{id}/orders
 * operationPattern('DELETE /users/**')(deleteUserOrder); // true
 */
export function operationPattern(entry: string): (op: SpecOperation) => boolean {
  const glob = /^(?:([A-Za-z]+)\s+)?(\/.*)$/.exec(entry.trim());
  if (!glob) return (op) => op.operationId === entry || op.tags.includes(entry);
  const method = glob[1]?.toLowerCase();
  const pattern = pathGlob(glob[2] as string);
  return (op) => (method === undefined || op.method === method) && pattern.test(op.path);
}

/** Whether an entry is a path glob rather than an operationId or tag. */
export function isPathGlob(entry: string): boolean {
  return /^(?:[A-Za-z]+\s+)?\//.test(entry.trim());
}

/** The glob as an anchored regular expression over a path template. */
function pathGlob(glob: string): RegExp {
  const segments = glob.replace(/\/+$/, '').split('/').slice(1);
  let source = '';
  for (const segment of segments) {
    if (segment === '**') {
      // Zero or more whole segments: `/users/**` is `/users` too.
      source += '(?:/[^/]+)*';
      continue;
    }
    const body = /^\{[^}]*\}$/.test(segment)
      ? '\\{[^/}]+\\}'
      : segment
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*');
    source += `/${body}`;
  }
  return new RegExp(`^${source || '/'}$`);
}
