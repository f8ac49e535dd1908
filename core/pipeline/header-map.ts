import { normalizeHeaderValue } from '../../spec/header-value.js';

/**
 * A Fetch `Headers` over a plain map, for the pipeline's hot path. It answers like `Headers`
 * (names case-insensitive, `append` joins with ", ", Set-Cookie values kept apart, iteration
 * sorted by lower-case name, values trimmed of HTTP whitespace) but skips what costs there:
 * undici's per-call name and value validation and the re-sorting on every iteration. Names
 * and values come from the pipeline itself or from Node's HTTP parser, which has already
 * refused malformed ones, and a response header is validated again by `res.setHeader` or by
 * `new Response()` on its way out.
 *
 * @example
 * const headers = HeaderMap.fromNode(req.headers);
 * headers.get('Authorization');
 */
export class HeaderMap implements Headers {
  readonly #values = new Map<string, string>();
  #cookies: string[] = [];

  /**
   * The headers of a Node request as Node merged them (first Authorization kept, repeated
   * list headers joined with ", ", Set-Cookie as an array), without copying them twice.
   */
  static fromNode(headers: Record<string, string | string[] | undefined>): HeaderMap {
    const map = new HeaderMap();
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined) continue;
      if (typeof value === 'string') map.#values.set(name, value);
      else for (const v of value) map.append(name, v);
    }
    return map;
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    // String(): like Headers, whatever a caller outside the type system hands it.
    const v = normalizeHeaderValue(String(value));
    if (key === 'set-cookie') this.#cookies.push(v);
    const current = this.#values.get(key);
    this.#values.set(key, current === undefined ? v : `${current}, ${v}`);
  }

  delete(name: string): void {
    const key = name.toLowerCase();
    if (key === 'set-cookie') this.#cookies = [];
    this.#values.delete(key);
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  getSetCookie(): string[] {
    return [...this.#cookies];
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase();
    const v = normalizeHeaderValue(String(value));
    if (key === 'set-cookie') this.#cookies = [v];
    this.#values.set(key, v);
  }

  forEach(
    callback: (value: string, key: string, parent: Headers) => void,
    thisArg?: unknown,
  ): void {
    for (const [key, value] of this.#entries()) callback.call(thisArg, value, key, this);
  }

  entries(): HeadersIterator<[string, string]> {
    return this.#entries()[Symbol.iterator]();
  }

  keys(): HeadersIterator<string> {
    return this.#entries()
      .map(([key]) => key)
      [Symbol.iterator]();
  }

  values(): HeadersIterator<string> {
    return this.#entries()
      .map(([, value]) => value)
      [Symbol.iterator]();
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  /** As Fetch lists them: sorted by name, each Set-Cookie value on its own. */
  #entries(): [string, string][] {
    const names = [...this.#values.keys()].sort();
    const list: [string, string][] = [];
    for (const name of names) {
      if (name === 'set-cookie') for (const c of this.#cookies) list.push([name, c]);
      else list.push([name, this.#values.get(name) as string]);
    }
    return list;
  }
}
