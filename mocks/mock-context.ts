import { stringify } from 'yaml';
import bundled from '../spec/openapi.json' with { type: 'json' };
import { dereferenceDocument } from '../spec/dereference-document.js';
import type { OpenApiDocument } from '../spec/load-spec.js';
import { createApi, type Api } from '../reference-server/api/create-api.js';
import { openDocuments } from '../reference-server/api/open-routes.js';
import { createCachingAccessTokenCodec } from '../reference-server/domain/caching-access-token-codec.js';
import type { DomainContext } from '../reference-server/domain/ports.js';
import { buildSeedDataset } from '../reference-server/domain/seed-dataset.js';
import { createDurableStore } from '../reference-server/store/durable-store.js';
import { MemoryAdapter } from '../reference-server/store/memory-adapter.js';
import type { Dataset } from '../reference-server/domain/dataset.js';
import { createJoseAccessTokenCodec } from './jose-access-token-codec.js';
import { createWebCryptoPasswordHasher } from './web-crypto-password-hasher.js';
import { WebStorageAdapter, type KeyValueStorage } from './web-storage-adapter.js';

/** Demo passwords of the mocks: the same documented defaults as the reference server. */
export const MOCK_DEMO_PASSWORDS = { admin: 'admin-demo-password', user: 'user-demo-password' };

export interface MockContextOptions {
  data?: 'demo' | 'empty';
  jwtSecret?: string;
  demoPasswords?: { admin: string; user: string };
  /** PBKDF2 iterations of the demo accounts' hashes (lower in unit tests). */
  passwordIterations?: number;
  /**
   * Keep the data in Web Storage (e.g. `{ storage: localStorage }`) so that it survives a page
   * reload; default: memory only, fresh demo data on every start.
   */
  persist?: { storage: KeyValueStorage; key?: string };
}

/** The domain and the pipeline the mocks run: the reference server's, minus Node and the socket. */
export interface MockContext {
  ctx: DomainContext;
  api: Api;
  spec: OpenApiDocument;
}

let sharedSpec: OpenApiDocument | undefined;

/** The contract, dereferenced once per process or page from the bundled JSON (no file system). */
export function mockSpec(): OpenApiDocument {
  return (sharedSpec ??= dereferenceDocument(bundled));
}

/**
 * Builds the reference server's domain and pipeline over an in-memory store with browser-safe
 * crypto (Web Crypto PBKDF2, jose), seeded with the same deterministic data set.
 */
export async function createMockContext(options: MockContextOptions = {}): Promise<MockContext> {
  const passwords = createWebCryptoPasswordHasher(options.passwordIterations);
  const secret = options.jwtSecret ?? randomSecret();
  const demoPasswords = options.demoPasswords ?? MOCK_DEMO_PASSWORDS;
  const dataSet = options.data ?? 'demo';
  const store = await createDurableStore({
    adapter: options.persist
      ? new WebStorageAdapter<Dataset>(
          options.persist.storage,
          options.persist.key ?? 'apikit-mock-data',
        )
      : new MemoryAdapter<Dataset>(),
    seed: () => buildSeedDataset(dataSet, { passwords, demoPasswords, now: new Date() }),
  });
  const ctx: DomainContext = {
    store,
    clock: () => new Date(),
    passwords,
    // As on the server: a token's signature is checked once (jose's verify is async Web Crypto).
    tokens: createCachingAccessTokenCodec(createJoseAccessTokenCodec(secret)),
    config: {
      accessTokenTtlSeconds: 900,
      refreshTokenTtlSeconds: 7 * 24 * 3600,
      idempotencyTtlSeconds: 24 * 3600,
      demoPasswords,
      dataSet,
    },
  };
  const spec = mockSpec();
  const api = createApi({
    ctx,
    spec,
    documents: openDocuments({
      json: () => JSON.stringify(bundled),
      yaml: () => stringify(bundled),
    }),
  });
  return { ctx, api, spec };
}

function randomSecret(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(48))));
}
