import { describe, expect, it } from 'vitest';
import { createDatasetRepository } from './repository/dataset-repository.js';
import { createCore, createDomainContext, domainConfig } from './create-core.js';
import { DOMAIN_DEFAULTS } from './domain-defaults.js';
import { createDurableStore } from './store/durable-store.js';
import { MemoryAdapter } from './store/memory-adapter.js';
import type { Dataset } from './domain/dataset.js';
import type { AccessTokenClaims, AccessTokenCodec, PasswordHasher } from './domain/ports.js';
import bundled from '../spec/openapi.json' with { type: 'json' };
import { dereferenceDocument } from '../spec/dereference-document.js';
import { openDocuments } from './pipeline/open-routes.js';

const passwords: PasswordHasher = {
  hash: async (password) => `plain$${password}`,
  verify: async (password, stored) => stored === `plain$${password}`,
};
let verified = 0;
const tokens: AccessTokenCodec = {
  sign: async (claims, ttl, now) => {
    const iat = Math.floor(now.getTime() / 1000);
    return btoa(JSON.stringify({ ...claims, iat, exp: iat + ttl }));
  },
  verify: async (token) => {
    verified++;
    return JSON.parse(atob(token)) as AccessTokenClaims;
  },
};
const pipeline = {
  spec: dereferenceDocument(bundled),
  documents: openDocuments({ json: () => '{}', yaml: () => '' }),
};

describe('createCore', () => {
  it('fills every default the caller leaves out, and keeps what it gives', () => {
    expect(domainConfig()).toEqual(DOMAIN_DEFAULTS);
    const config = domainConfig({ accessTokenTtlSeconds: 60, demoPasswords: undefined });
    expect(config.accessTokenTtlSeconds).toBe(60);
    expect(config.demoPasswords).toEqual(DOMAIN_DEFAULTS.demoPasswords);
    expect(config.refreshTokenTtlSeconds).toBe(7 * 24 * 3600);
  });

  it('seeds a new store from the data set and logs in with the demo password over the pipeline', async () => {
    const { api, ctx, seeded } = await createCore(
      {
        openRepository: async (seed) =>
          createDatasetRepository(
            await createDurableStore({ adapter: new MemoryAdapter<Dataset>(), seed }),
          ),
        passwords,
        tokens,
      },
      { config: { dataSet: 'empty' }, pipeline },
    );
    expect(seeded).toBe(true);
    expect((await ctx.repo.listUsers({ sort: [], offset: 0, limit: 10 })).total).toBe(2);
    const login = await api.handle({
      method: 'POST',
      path: '/api/v1/auth/login',
      query: '',
      headers: new Headers({ 'content-type': 'application/json', accept: 'application/json' }),
      body: new TextEncoder().encode(
        JSON.stringify({
          username: 'admin@example.com',
          password: DOMAIN_DEFAULTS.demoPasswords.admin,
        }),
      ),
    });
    expect(login.status).toBe(200);
  });

  it('puts the verified-token cache in front of the runtime codec', async () => {
    const { ctx } = await createCore(
      {
        openRepository: async (seed) =>
          createDatasetRepository(
            await createDurableStore({ adapter: new MemoryAdapter<Dataset>(), seed }),
          ),
        passwords,
        tokens,
      },
      { config: { dataSet: 'empty' }, pipeline },
    );
    const token = await ctx.tokens.sign({ sub: '1', name: 'A', role: 'ADMIN' }, 900, new Date());
    verified = 0;
    await ctx.tokens.verify(token, new Date());
    await ctx.tokens.verify(token, new Date());
    expect(verified).toBe(1);
  });

  it('keeps an existing store unseeded', async () => {
    const adapter = new MemoryAdapter<Dataset>();
    const ports = {
      openRepository: async (seed: () => Promise<Dataset>) =>
        createDatasetRepository(await createDurableStore({ adapter, seed })),
      passwords,
      tokens,
    };
    await createCore(ports, { config: { dataSet: 'empty' }, pipeline });
    const again = await createCore(ports, { config: { dataSet: 'empty' }, pipeline });
    expect(again.seeded).toBe(false);
  });
});

describe('createDomainContext', () => {
  it('gives the domain tests the same defaults as the faces', () => {
    const ctx = createDomainContext(
      { repo: {} as never, clock: () => new Date(0), passwords, tokens },
      { demoPasswords: { admin: 'a', user: 'u' } },
    );
    expect(ctx.config).toEqual({ ...DOMAIN_DEFAULTS, demoPasswords: { admin: 'a', user: 'u' } });
  });
});
