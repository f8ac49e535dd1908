/** One link of an RFC 8288 `Link` header. */
export interface WebLink {
  url: string;
  rels: string[];
}

/**
 * Parses an RFC 8288 `Link` header: `<uri>; rel="next"; title="x", <uri>; rel=last`. Commas
 * inside `<...>` or quoted strings do not split links; `rel` may hold several relation types.
 *
 * @example
 * parseLinkHeader('</users?page=1>; rel="next"'); // [{ url: '/users?page=1', rels: ['next'] }]
 */
export function parseLinkHeader(value: string | null): WebLink[] {
  if (!value) return [];
  const links: WebLink[] = [];
  const pattern = /<([^>]*)>((?:\s*;\s*[^;,="]+(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^;,"]*))?)*)/g;
  for (const m of value.matchAll(pattern)) {
    const rels: string[] = [];
    const params = /;\s*([^;,="\s]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,"]*)))?/g;
    for (const p of (m[2] ?? '').matchAll(params)) {
      if (p[1]?.toLowerCase() !== 'rel') continue;
      rels.push(...(p[2] ?? p[3] ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean));
    }
    links.push({ url: m[1] ?? '', rels });
  }
  return links;
}

/** The URL of the link with that relation type, if any. */
export function linkWithRel(links: WebLink[], rel: string): string | undefined {
  return links.find((l) => l.rels.includes(rel))?.url;
}
