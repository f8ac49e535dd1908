/**
 * The Web Crypto the core and the mocks use, wherever they run (decision 0105): the global
 * `crypto` when it has what is asked for; else Node's own `webcrypto`, looked up at run time
 * (a static `node:crypto` import would break the mocks' browser bundle), which is what jsdom
 * under Jest needs: its `crypto` has `getRandomValues` and `randomUUID` but no `subtle`; else an
 * Error saying what is missing and why, never a TypeError about `importKey` of undefined.
 */

/** The parts of `node:crypto` looked up; `process.getBuiltinModule` exists from Node 20.16. */
interface NodeCryptoModule {
  webcrypto?: Crypto;
}
type ProcessWithBuiltins = { getBuiltinModule?: (id: string) => unknown };

let nodeWebCrypto: Crypto | null | undefined;

/** Node's `webcrypto`, or null outside Node (browsers, workers, a Node before 20.16). */
function nodeCrypto(): Crypto | null {
  if (nodeWebCrypto === undefined) {
    const process = (globalThis as { process?: ProcessWithBuiltins }).process;
    let found: Crypto | undefined;
    try {
      found = (process?.getBuiltinModule?.('node:crypto') as NodeCryptoModule | undefined)
        ?.webcrypto;
    } catch {
      found = undefined; // a bundler's stand-in for `process` that refuses the call
    }
    nodeWebCrypto = found?.subtle ? found : null;
  }
  return nodeWebCrypto;
}

/**
 * The SubtleCrypto to hash, derive and sign with: the global one when present, else Node's.
 *
 * @example
 * const digest = await subtleCrypto().digest('SHA-256', bytes);
 */
export function subtleCrypto(): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle ?? nodeCrypto()?.subtle;
  if (!subtle) throw new Error(missing('crypto.subtle (PBKDF2, HMAC, SHA-256)'));
  return subtle;
}

/**
 * Fills `array` with cryptographically strong random values (global crypto, else Node's).
 *
 * @example
 * const salt = randomValues(new Uint8Array(16));
 */
export function randomValues<T extends Uint8Array>(array: T): T {
  const source =
    typeof globalThis.crypto?.getRandomValues === 'function' ? globalThis.crypto : nodeCrypto();
  if (!source) throw new Error(missing('crypto.getRandomValues'));
  return source.getRandomValues(array);
}

/**
 * A random (version 4) UUID: `crypto.randomUUID` where there is one (browsers have it only in
 * secure contexts), else one made from {@link randomValues}.
 *
 * @example
 * const requestId = randomUUID(); // '1b4e28ba-2fa1-41d2-883f-0016d3cca427'
 */
export function randomUUID(): string {
  if (typeof globalThis.crypto?.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const node = nodeCrypto();
  if (node) return node.randomUUID();
  const bytes = randomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What is missing, and the usual reason: a page that is not a secure context. */
function missing(what: string): string {
  const scope = globalThis as { isSecureContext?: boolean; location?: { origin?: string } };
  const where =
    scope.isSecureContext === false
      ? `this page (${scope.location?.origin ?? 'its origin'}) is not a secure context: browsers ` +
        'offer Web Crypto only on https:// and on http://localhost, so open it from one of those'
      : 'this runtime has neither a global one nor Node’s (node:crypto webcrypto, Node 20.16 ' +
        'and later)';
  return `apikit needs Web Crypto’s ${what}, and ${where}.`;
}
