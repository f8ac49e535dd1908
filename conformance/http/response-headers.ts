import { normalizeHeaderValue } from '../../spec/header-value.js';

/**
 * The header lines of an answer as a `Headers`: case-insensitive reads, repeated fields joined
 * with `, ` (Set-Cookie kept apart by `getSetCookie` and in iteration), iteration in sorted
 * lowercase order, values stripped of surrounding whitespace: what the platform's `Headers`
 * answers for the same lines. It only skips what that class does on every `append`, which the
 * runner paid for on every header of every answer: checking names and values that the HTTP
 * parser has already accepted, and sorting the whole list again for each iteration.
 *
 * @example
 * const headers = ResponseHeaders.fromRaw([Buffer.from('ETag'), Buffer.from('"1"')]);
 * headers.get('etag'); // '"1"'
 */
export class ResponseHeaders implements Headers {
  /** Values by lowercase name, in the order they came. */
  private readonly fields = new Map<string, string[]>();
  private sorted: [string, string][] | undefined;

  /** From undici's raw header lines: name, value, name, value, ... (latin1, as on the wire). */
  static fromRaw(raw: readonly Buffer[]): ResponseHeaders {
    const headers = new ResponseHeaders();
    for (let i = 0; i + 1 < raw.length; i += 2)
      headers.append(
        (raw[i] as Buffer).toString('latin1'),
        (raw[i + 1] as Buffer).toString('latin1'),
      );
    return headers;
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const list = this.fields.get(key);
    if (list) list.push(normalizeHeaderValue(value));
    else this.fields.set(key, [normalizeHeaderValue(value)]);
    this.sorted = undefined;
  }

  delete(name: string): void {
    this.fields.delete(name.toLowerCase());
    this.sorted = undefined;
  }

  get(name: string): string | null {
    return this.fields.get(name.toLowerCase())?.join(', ') ?? null;
  }

  getSetCookie(): string[] {
    return [...(this.fields.get('set-cookie') ?? [])];
  }

  has(name: string): boolean {
    return this.fields.has(name.toLowerCase());
  }

  set(name: string, value: string): void {
    this.fields.set(name.toLowerCase(), [normalizeHeaderValue(value)]);
    this.sorted = undefined;
  }

  forEach(
    callbackfn: (value: string, key: string, parent: Headers) => void,
    thisArg?: unknown,
  ): void {
    for (const [name, value] of this.pairs()) callbackfn.call(thisArg, value, name, this);
  }

  entries(): HeadersIterator<[string, string]> {
    return this.pairs()
      .map(([name, value]): [string, string] => [name, value])
      [Symbol.iterator]();
  }

  keys(): HeadersIterator<string> {
    return this.pairs()
      .map(([name]) => name)
      [Symbol.iterator]();
  }

  values(): HeadersIterator<string> {
    return this.pairs()
      .map(([, value]) => value)
      [Symbol.iterator]();
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  /** The headers as one record, as `Object.fromEntries(headers)` makes it (the last Set-Cookie). */
  toRecord(): Record<string, string> {
    return Object.fromEntries(this.pairs());
  }

  /** Name and value pairs in the order `Headers` iterates them. */
  private pairs(): [string, string][] {
    if (!this.sorted) {
      const names = [...this.fields.keys()].sort();
      this.sorted = [];
      for (const name of names) {
        const values = this.fields.get(name) as string[];
        if (name === 'set-cookie') for (const value of values) this.sorted.push([name, value]);
        else this.sorted.push([name, values.join(', ')]);
      }
    }
    return this.sorted;
  }
}
