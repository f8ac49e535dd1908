import { webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module: it keeps Node's webcrypto once looked up. */
async function fresh() {
  vi.resetModules();
  return import('./web-crypto.js');
}

/** jsdom's `crypto`: random values and UUIDs, no `subtle`. */
const jsdomLike = () => ({
  getRandomValues: (array: Uint8Array) => webcrypto.getRandomValues(array),
  randomUUID: () => webcrypto.randomUUID(),
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('subtleCrypto', () => {
  it('is the global one when there is one', async () => {
    const { subtleCrypto } = await fresh();
    expect(subtleCrypto()).toBe(globalThis.crypto.subtle);
  });

  it('is Node’s when the global crypto has no subtle (jsdom under Jest)', async () => {
    vi.stubGlobal('crypto', jsdomLike());
    const { subtleCrypto, randomValues } = await fresh();
    expect(subtleCrypto()).toBe(webcrypto.subtle);
    const digest = await subtleCrypto().digest('SHA-256', new TextEncoder().encode('abc'));
    expect(Buffer.from(digest).toString('hex')).toMatch(/^ba7816bf/);
    expect(randomValues(new Uint8Array(8))).toHaveLength(8);
  });

  it('throws an Error naming what is missing where neither exists', async () => {
    vi.stubGlobal('crypto', jsdomLike());
    vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
    const { subtleCrypto } = await fresh();
    expect(() => subtleCrypto()).toThrow(
      /^apikit needs Web Crypto’s crypto\.subtle \(PBKDF2, HMAC, SHA-256\), and this runtime has neither a global one nor Node’s/,
    );
  });

  it('says why on a page that is not a secure context, naming its origin', async () => {
    vi.stubGlobal('crypto', { getRandomValues: jsdomLike().getRandomValues });
    vi.stubGlobal('isSecureContext', false);
    vi.stubGlobal('location', { origin: 'http://192.168.1.20:5173' });
    vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
    const { subtleCrypto, randomUUID } = await fresh();
    expect(() => subtleCrypto()).toThrow(
      'apikit needs Web Crypto’s crypto.subtle (PBKDF2, HMAC, SHA-256), and this page (http://192.168.1.20:5173) is not a secure context: browsers offer Web Crypto only on https:// and on http://localhost, so open it from one of those.',
    );
    // randomUUID is secure-context only too; request ids still get one.
    const ids = new Set(Array.from({ length: 50 }, () => randomUUID()));
    expect(ids.size).toBe(50);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
