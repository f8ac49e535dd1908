import { stringify } from 'yaml';
import bundled from '../spec/openapi.json' with { type: 'json' };
import { dereferenceDocument } from '../spec/dereference-document.js';
import type { OpenApiDocument } from '../spec/load-spec.js';
import type { Api } from '../core/pipeline/create-api.js';
import { createCore } from '../core/create-core.js';
import { DOMAIN_DEFAULTS } from '../core/domain-defaults.js';
import type { Store } from '../core/domain/store.js';
import { openDocuments } from '../core/pipeline/open-routes.js';
import type { DataSetFile } from '../core/data-set/data-set-format.js';
import { dataSetSeed } from '../core/data-set/load-data-set.js';
import type { AccessTokenCodec, DomainContext } from '../core/domain/ports.js';
import type { OwnDataSeed, SeedSource } from '../core/domain/seed-dataset.js';
import { createDurableStore } from '../core/store/durable-store.js';
import { createDatasetRepository } from '../core/repository/dataset-repository.js';
import { MemoryAdapter } from '../core/store/memory-adapter.js';
import type { Dataset } from '../core/domain/dataset.js';
import { actingAdminCodec } from './acting-admin-codec.js';
import { randomValues } from '../core/web-crypto.js';
import { createHs256AccessTokenCodec } from './hs256-access-token-codec.js';
import { createWebCryptoPasswordHasher } from './web-crypto-password-hasher.js';
import { WebStorageAdapter, type KeyValueStorage } from './web-storage-adapter.js';

/** Demo passwords of the mocks: the same documented defaults as the reference server. */
export const MOCK_DEMO_PASSWORDS = DOMAIN_DEFAULTS.demoPasswords;

export interface MockContextOptions {
  /**
   * What the mocks start (and `reset()` returns) to: the demo data set (default), only the two
   * login accounts (`empty`), or a data set of your own in the format of docs/data-format.md,
   * checked against the contract when the mocks are made (an InvalidDataSetError lists every
   * problem).
   */
  data?: 'demo' | 'empty' | DataSetFile | OwnDataSeed;
  /** `off` lets a test skip the login dance: requests without a token act as an ADMIN. */
  auth?: 'enforce' | 'off';
  jwtSecret?: string;
  demoPasswords?: { admin: string; user: string };
  /** PBKDF2 iterations of the demo accounts' hashes (lower in unit tests). */
  passwordIterations?: number;
  /**
   * Keep the data in Web Storage (e.g. `{ storage: localStorage }`) so that it survives a page
   * reload; default: memory only, fresh demo data on every start.
   */
  persist?: { storage: KeyValueStorage; key?: string };
  /** Told about every unexpected error inside the pipeline (an answer of 500). */
  onUnexpectedError?: (error: unknown, requestId: string) => void;
}

/** The domain and the pipeline the mocks run: the reference server's, minus Node and the socket. */
export interface MockContext {
  ctx: DomainContext;
  api: Api;
  spec: OpenApiDocument;
  /** The in-memory data set store under the repository, for assertions on state. */
  store: Store;
  /**
   * With `auth: 'off'`, the bearer token a request without one is given: an unguessable value
   * the token codec resolves to the data set's first ADMIN, with no JWT signed per request.
   */
  actingAdminToken?: string;
}

let sharedSpec: OpenApiDocument | undefined;

/** The contract, dereferenced once per process or page from the bundled JSON (no file system). */
export function mockSpec(): OpenApiDocument {
  return (sharedSpec ??= dereferenceDocument(bundled));
}

/**
 * The seed the mocks start from: `demo`, `empty`, or a data set of your own checked against the
 * contract now, synchronously, so that `createMockApi` throws at once on a bad one.
 */
export function mockSeed(data: MockContextOptions['data']): SeedSource {
  if (data === undefined || data === 'demo' || data === 'empty') return data ?? 'demo';
  if (typeof data === 'object' && data !== null && 'build' in data) return data;
  return dataSetSeed(data, mockSpec(), 'createMockApi({ data })');
}

/**
 * Builds the reference server's domain and pipeline over an in-memory store with browser-safe
 * crypto (Web Crypto's PBKDF2 and HMAC, through core/web-crypto.ts), seeded with the same
 * deterministic data set.
 */
export async function createMockContext(options: MockContextOptions = {}): Promise<MockContext> {
  const passwords = createWebCryptoPasswordHasher(options.passwordIterations);
  const secret = options.jwtSecret ?? randomSecret();
  const dataSet = mockSeed(options.data);
  const spec = mockSpec();
  let actingAdminToken: string | undefined;
  let store: Store | undefined;
  const { ctx, api } = await createCore(
    {
      async openRepository(seed) {
        store = await createDurableStore({
          adapter: options.persist
            ? new WebStorageAdapter<Dataset>(
                options.persist.storage,
                options.persist.key ?? 'apikit-mock-data',
              )
            : new MemoryAdapter<Dataset>(),
          seed,
        });
        return createDatasetRepository(store);
      },
      passwords,
      tokens: createHs256AccessTokenCodec(secret),
      ...(options.auth === 'off'
        ? {
            decorateTokens: (tokens: AccessTokenCodec) => {
              actingAdminToken = `apikit-auth-off.${randomHex(24)}`;
              return actingAdminCodec(
                tokens,
                actingAdminToken,
                () => opened(store).data,
                DOMAIN_DEFAULTS.accessTokenTtlSeconds,
              );
            },
          }
        : {}),
    },
    {
      config: { demoPasswords: options.demoPasswords, dataSet },
      pipeline: {
        spec,
        documents: openDocuments({
          json: () => JSON.stringify(bundled),
          yaml: () => stringify(bundled),
        }),
        ...(options.onUnexpectedError ? { onUnexpectedError: options.onUnexpectedError } : {}),
      },
    },
  );
  return {
    ctx,
    api,
    spec,
    store: opened(store),
    ...(actingAdminToken ? { actingAdminToken } : {}),
  };
}

function opened(store: Store | undefined): Store {
  if (!store) throw new Error('the mock store is not open yet');
  return store;
}

function randomSecret(): string {
  return btoa(String.fromCharCode(...randomValues(new Uint8Array(48))));
}

function randomHex(bytes: number): string {
  return Array.from(randomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}
