import type { DomainConfig } from './domain/ports.js';

/** The documented demo login passwords (README, the spec's login example). */
export const DEMO_PASSWORDS = { admin: 'admin-demo-password', user: 'user-demo-password' };

/**
 * The defaults of the domain, here and nowhere else: the reference server, the mocks and the
 * test contexts all start from these and override what their options say.
 */
export const DOMAIN_DEFAULTS: Omit<DomainConfig, 'dataSet'> = {
  accessTokenTtlSeconds: 900,
  refreshTokenTtlSeconds: 7 * 24 * 3600,
  idempotencyTtlSeconds: 24 * 3600,
  demoPasswords: DEMO_PASSWORDS,
};
