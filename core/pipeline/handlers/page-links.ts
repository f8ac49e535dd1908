import { API_BASE } from '../api-paths.js';

/**
 * The RFC 8288 `Link` header of a page: first and last always, prev and next only when they
 * are in range; every other query parameter is kept as sent.
 *
 * @example
 * pageLinks('/users', 'status=ACTIVE&page=1', 1, 20, 3);
 * // </api/v1/users?status=ACTIVE&page=0&size=20>; rel="first", ... rel="prev", ... rel="next", ... rel="last"
 */
export function pageLinks(
  apiPath: string,
  rawQuery: string,
  page: number,
  size: number,
  totalPages: number,
): string {
  const last = Math.max(totalPages - 1, 0);
  const link = (target: number, rel: string) => {
    const query = new URLSearchParams(rawQuery);
    query.set('page', String(target));
    query.set('size', String(size));
    // Commas are legal in a query (sort=name,desc) and easier to read unescaped.
    return `<${API_BASE}${apiPath}?${query.toString().replace(/%2C/gi, ',')}>; rel="${rel}"`;
  };
  const links = [link(0, 'first')];
  if (page - 1 >= 0 && page - 1 <= last) links.push(link(page - 1, 'prev'));
  if (page + 1 <= last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  return links.join(', ');
}
