/** One member of a structured-field list (RFC 9651): its bare item and its parameters. */
export interface ListMember {
  item: BareItem;
  params: Map<string, BareItem>;
}

/** A bare item, by kind; `text` is the value as written (strings unquoted). */
export interface BareItem {
  kind: 'integer' | 'decimal' | 'string' | 'token' | 'bytes' | 'boolean';
  text: string;
}

const BARE =
  /^(?:(-?\d{1,15}\.\d{1,3})|(-?\d{1,15})|"((?:[^"\\\x00-\x1f\x7f]|\\["\\])*)"|([A-Za-z*][A-Za-z0-9:/!#$%&'*+\-.^_`|~]*)|:([A-Za-z0-9+/=]*):|\?([01]))/;
const KEY = /^[a-z*][a-z0-9_\-.*]*/;

function bare(rest: string): { item: BareItem; rest: string } | undefined {
  const m = BARE.exec(rest);
  if (!m) return undefined;
  const kinds: BareItem['kind'][] = ['decimal', 'integer', 'string', 'token', 'bytes', 'boolean'];
  const at = m.slice(1).findIndex((g) => g !== undefined);
  const text = at === 2 ? m[3]!.replace(/\\(["\\])/g, '$1') : m[at + 1]!;
  return { item: { kind: kinds[at]!, text }, rest: rest.slice(m[0].length) };
}

/**
 * Parses a structured-field list of items with parameters (`"a";q=1;w=60, "b";q=2`), the
 * syntax of the RateLimit headers; undefined when it is not one. Inner lists are refused.
 *
 * @example
 * parseList('"default";r=5;t=30')?.[0]?.params.get('r'); // { kind: 'integer', text: '5' }
 */
export function parseList(value: string): ListMember[] | undefined {
  const members: ListMember[] = [];
  let rest = value.trim();
  while (rest.length > 0) {
    const first = bare(rest);
    if (!first) return undefined;
    rest = first.rest;
    const params = new Map<string, BareItem>();
    while (rest.startsWith(';')) {
      rest = rest.slice(1).replace(/^ +/, '');
      const key = KEY.exec(rest)?.[0];
      if (!key) return undefined;
      rest = rest.slice(key.length);
      if (rest.startsWith('=')) {
        const value = bare(rest.slice(1));
        if (!value) return undefined;
        params.set(key, value.item);
        rest = value.rest;
      } else params.set(key, { kind: 'boolean', text: '1' });
    }
    members.push({ item: first.item, params });
    rest = rest.replace(/^[ \t]*/, '');
    if (rest.length === 0) break;
    if (!rest.startsWith(',')) return undefined;
    rest = rest.slice(1).replace(/^[ \t]*/, '');
    if (rest.length === 0) return undefined;
  }
  return members.length > 0 ? members : undefined;
}
