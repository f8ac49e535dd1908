import type { Dataset } from './domain/dataset.js';
import type {
  AccessTokenCodec,
  DomainConfig,
  DomainContext,
  PasswordHasher,
} from './domain/ports.js';
import { buildSeedDataset } from './domain/seed-dataset.js';
import type { Repository } from './repository/repository.js';
import { createCachingAccessTokenCodec } from './domain/caching-access-token-codec.js';
import { createApi, type Api, type ApiOptions } from './pipeline/create-api.js';
import { DOMAIN_DEFAULTS } from './domain-defaults.js';

/** What a runtime plugs into the core: its store of record, its crypto and its time. */
export interface CorePorts {
  /**
   * Opens the repository; `seed` builds the data set a new store starts from. A data set held
   * in memory (file, browser storage, nothing) goes through `createDatasetRepository` over its
   * store; a database brings a repository of its own.
   */
  openRepository(seed: () => Promise<Dataset>): Promise<Repository>;
  passwords: PasswordHasher;
  /** The runtime's HS256 codec; the core puts its verified-token cache in front of it. */
  tokens: AccessTokenCodec;
  /** Wraps the cached codec once the store is open (the mocks' `auth: 'off'`). */
  decorateTokens?(tokens: AccessTokenCodec): AccessTokenCodec;
  clock?: () => Date;
}

/** What the caller decides: the domain's tunables and the pipeline's options. */
export interface CoreOptions {
  config?: Partial<DomainConfig>;
  /**
   * The pipeline's options (the contract, its documents, CORS, error hook), or a promise of them:
   * the server reads the contract while the store opens.
   */
  pipeline: PipelineOptions | Promise<PipelineOptions>;
}

export type PipelineOptions = Omit<ApiOptions, 'ctx'>;

/** The domain over an open store, and the pipeline in front of it. */
export interface Core {
  ctx: DomainContext;
  api: Api;
  /** Whether this start built a new store from the seed (false: an existing store was kept). */
  seeded: boolean;
}

/**
 * The one place the core is wired: defaults, the seed, the store, the token cache, the domain
 * context and the pipeline. Each face passes only its runtime's ports and its own options.
 *
 * @example
 * const { api } = await createCore(
 *   {
 *     openRepository: async (seed) =>
 *       createDatasetRepository(await createDurableStore({ adapter, seed })),
 *     passwords,
 *     tokens,
 *   },
 *   { pipeline: { spec, documents } },
 * );
 */
export async function createCore(ports: CorePorts, options: CoreOptions): Promise<Core> {
  const config = domainConfig(options.config);
  // Awaited once the store is open; a store that fails first must not leave it unhandled.
  Promise.resolve(options.pipeline).catch(() => {});
  const clock = ports.clock ?? (() => new Date());
  let seeded = false;
  const repo = await ports.openRepository(() => {
    seeded = true;
    return buildSeedDataset(config.dataSet ?? 'demo', {
      passwords: ports.passwords,
      demoPasswords: config.demoPasswords,
      now: clock(),
    });
  });
  // Clients send one token for its whole life: its signature is checked once, not per request.
  const cached = createCachingAccessTokenCodec(ports.tokens);
  const tokens = ports.decorateTokens ? ports.decorateTokens(cached) : cached;
  const ctx: DomainContext = { repo, clock, passwords: ports.passwords, tokens, config };
  return { ctx, api: createApi({ ctx, ...(await options.pipeline) }), seeded };
}

/** The domain's configuration: {@link DOMAIN_DEFAULTS} with the caller's overrides. */
export function domainConfig(overrides: Partial<DomainConfig> = {}): DomainConfig {
  const defined = Object.entries(overrides).filter(([, value]) => value !== undefined);
  return { ...DOMAIN_DEFAULTS, ...(Object.fromEntries(defined) as Partial<DomainConfig>) };
}

/**
 * A domain context without a pipeline, for the domain's own tests: {@link DOMAIN_DEFAULTS}
 * over the given repository and ports.
 */
export function createDomainContext(
  parts: Pick<DomainContext, 'repo' | 'clock' | 'passwords' | 'tokens'>,
  overrides?: Partial<DomainConfig>,
): DomainContext {
  return { ...parts, config: domainConfig(overrides) };
}
