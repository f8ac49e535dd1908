/**
 * The values of `template`'s parameters in a concrete path (`/users/12` against
 * `/users/{id}`: `{ id: '12' }`), decoded; undefined when the path is not one of the
 * template's (or a value does not decode). `loose` also takes any base before the template
 * and a trailing slash (a recorded URL, whatever base the mocks answered under); `raw` keeps
 * the values as they stand in the path, undecoded.
 *
 * @example
 * pathParameters('/users/{id}', '/users/12'); // { id: '12' }
 * pathParameters('/users/{id}', '/api/v1/users/12/', { loose: true }); // { id: '12' }
 */
export function pathParameters(
  template: string,
  path: string,
  { loose = false, raw = false }: { loose?: boolean; raw?: boolean } = {},
): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  const match = new RegExp(loose ? `^(?:/.*?)?${pattern}/?$` : `^${pattern}$`).exec(path);
  if (!match) return undefined;
  const value = (i: number) => (raw ? match[i + 1]! : decodeURIComponent(match[i + 1]!));
  try {
    return Object.fromEntries(names.map((name, i) => [name, value(i)]));
  } catch {
    return undefined;
  }
}
