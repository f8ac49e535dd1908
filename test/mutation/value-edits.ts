/**
 * Generic edits of what an HTTP exchange carries: JSON values by path, header values and the
 * parts of structured headers. Nothing here knows the API: a value is changed by its shape.
 */

export type JsonPath = (string | number)[];

/** `a.b[].c`: a path with the array indices folded, the name survivors are classified by. */
export function pathName(path: JsonPath): string {
  let name = '';
  for (const key of path) name += typeof key === 'number' ? '[]' : name === '' ? key : `.${key}`;
  return name === '' ? '(root)' : name;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every path below `value` (not the root), depth first, objects' keys and arrays' items. */
export function allPaths(value: unknown, prefix: JsonPath = []): JsonPath[] {
  const out: JsonPath[] = [];
  if (Array.isArray(value))
    value.forEach((item, i) => {
      out.push([...prefix, i], ...allPaths(item, [...prefix, i]));
    });
  else if (isRecord(value))
    for (const [key, item] of Object.entries(value))
      out.push([...prefix, key], ...allPaths(item, [...prefix, key]));
  return out;
}

/** Paths of object members (what can be dropped or retyped), not array items. */
export function memberPaths(value: unknown): JsonPath[] {
  return allPaths(value).filter((p) => typeof p[p.length - 1] === 'string');
}

/** Object members holding a scalar other than null (what can be changed keeping its type). */
export function leafPaths(value: unknown): JsonPath[] {
  return memberPaths(value).filter((p) => {
    const v = get(value, p);
    return v !== null && typeof v !== 'object';
  });
}

/** Paths of the objects (the root included) a member can be added to. */
export function objectPaths(value: unknown): JsonPath[] {
  return [[], ...allPaths(value)].filter((p) => isRecord(get(value, p)));
}

/** Paths of the arrays (the root included) with at least `min` items. */
export function arrayPaths(value: unknown, min: number): JsonPath[] {
  return [[], ...allPaths(value)].filter((p) => {
    const v = get(value, p);
    return Array.isArray(v) && v.length >= min;
  });
}

export function get(value: unknown, path: JsonPath): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

/** A deep copy with the value at `path` replaced (`undefined`: the member removed). */
export function withValue(value: unknown, path: JsonPath, next: unknown): unknown {
  const copy = structuredClone(value);
  if (path.length === 0) return next;
  const parent = get(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (next === undefined) delete parent[last];
  else parent[last] = next;
  return copy;
}

/** The same JSON type, another value: numbers +1, booleans flipped, strings by their shape. */
export function sameTypeOther(v: unknown): unknown {
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'string') return otherString(v);
  return undefined;
}

/** Another JSON type for the value: what a loosely typed backend might send. */
export function otherType(v: unknown): unknown {
  if (typeof v === 'string') return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : 1;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return String(v);
  if (v === null) return 0;
  if (Array.isArray(v)) return {};
  return 'x';
}

/** Another string of the same shape: a timestamp a day earlier, an e-mail, a URL, a word. */
export function otherString(s: string): string {
  if (/^\d{4}-\d\d-\d\dT/.test(s) && !Number.isNaN(Date.parse(s)))
    return new Date(Date.parse(s) - 86_400_000).toISOString();
  if (/^\d{4}-\d\d-\d\d$/.test(s))
    return new Date(Date.parse(s) - 86_400_000).toISOString().slice(0, 10);
  if (/^[^@\s]+@[^@\s]+$/.test(s)) return `x${s}`;
  if (/^(\/|https?:)/.test(s)) return otherUri(s);
  // BigInt: past 2^53 a Number + 1 is the same number, and the edit would change nothing.
  if (/^-?\d+$/.test(s)) return String(BigInt(s) + 1n);
  if (s === '') return 'x';
  const last = s[s.length - 1]!;
  const swap = /[A-Z]/.test(last) ? (last === 'X' ? 'Y' : 'X') : last === 'x' ? 'y' : 'x';
  return s.slice(0, -1) + swap;
}

/** Another URI: its last number +1, else a segment more. */
export function otherUri(uri: string): string {
  const numbers = [...uri.matchAll(/\d+/g)];
  const last = numbers[numbers.length - 1];
  if (last?.index !== undefined)
    return (
      uri.slice(0, last.index) +
      String(BigInt(last[0]) + 1n) +
      uri.slice(last.index + last[0].length)
    );
  const [path, query] = uri.split('?', 2);
  return `${path!.replace(/\/$/, '')}/x${query !== undefined ? `?${query}` : ''}`;
}

/** Another value for a header: a number +1, an HTTP date an hour earlier, a quoted string, a URI. */
export function otherHeaderValue(value: string): string {
  const v = value.trim();
  if (/^\d+$/.test(v)) return String(Number(v) + 1);
  if (/GMT$/.test(v) && !Number.isNaN(Date.parse(v)))
    return new Date(Date.parse(v) - 3_600_000).toUTCString();
  const quoted = /^(W\/)?"(.*)"$/.exec(v);
  if (quoted) return `${quoted[1] ?? ''}"${otherString(quoted[2] ?? '')}"`;
  if (/^(\/|https?:)/.test(v)) return otherUri(v);
  if (/^</.test(v)) return v.replace(/<([^>]*)>/, (_m, uri: string) => `<${otherUri(uri)}>`);
  // The first token changes (`application/json; charset=utf-8` -> `application/jsonx; ...`).
  return v.replace(/^[^;,\s=]+/, (token) => `${token}x`);
}

/**
 * A structured header's parts: list members split on `,` and their parameters on `;` (outside
 * quotes and `<...>`), with the separator that follows each part. `Link`, `Cache-Control`,
 * `WWW-Authenticate`, `RateLimit` and `Vary` all read this way.
 */
export function headerParts(value: string): { text: string; sep: string }[] {
  const parts: { text: string; sep: string }[] = [];
  let current = '';
  let quoted = false;
  let angled = false;
  for (const ch of value) {
    if (ch === '"' && !angled) quoted = !quoted;
    else if (ch === '<' && !quoted) angled = true;
    else if (ch === '>' && !quoted) angled = false;
    if ((ch === ',' || ch === ';') && !quoted && !angled) {
      parts.push({ text: current, sep: ch });
      current = '';
    } else current += ch;
  }
  parts.push({ text: current, sep: '' });
  return parts.filter((p) => p.text.trim() !== '' || p.sep !== '');
}

/** The name a part is classified by: `rel=next`'s `rel`, `<...>`'s `uri`, a token itself. */
export function partName(text: string): string {
  const t = text.trim();
  if (t.startsWith('<')) return 'uri';
  const eq = t.indexOf('=');
  // WWW-Authenticate's first part is `Bearer realm="..."`: the scheme, then a parameter.
  if (eq < 0) return t.split(/\s+/)[0]!; // a token, or a CSP directive's name
  const name = t.slice(0, eq).trim();
  return name.includes(' ') ? name.split(/\s+/).pop()! : name;
}

/** The header without part `index` (its separator moves to the part before). */
export function dropPart(value: string, index: number): string {
  const parts = headerParts(value);
  const kept = parts.filter((_, i) => i !== index);
  if (index === parts.length - 1 && kept.length > 0) kept[kept.length - 1]!.sep = '';
  return kept.map((p) => p.text + p.sep).join('');
}

/** The header with part `index` altered: a parameter's value, a URI, or the token itself. */
export function alterPart(value: string, index: number): string {
  const parts = headerParts(value);
  const part = parts[index]!;
  const t = part.text;
  const eq = t.indexOf('=');
  if (t.trim().startsWith('<'))
    part.text = t.replace(/<([^>]*)>/, (_m, u: string) => `<${otherUri(u)}>`);
  else if (eq >= 0) part.text = t.slice(0, eq + 1) + otherHeaderValue(t.slice(eq + 1));
  else part.text = t.replace(/[^\s]+$/, (token) => `${token}x`);
  return parts.map((p) => p.text + p.sep).join('');
}
