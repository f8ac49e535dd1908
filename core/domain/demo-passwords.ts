import { DOMAIN_DEFAULTS } from '../domain-defaults.js';
import type { DomainContext } from './ports.js';

/** The demo data set's two login accounts, by the role their password is configured for. */
export const DEMO_ACCOUNTS = { admin: 'admin@example.com', user: 'user@example.com' } as const;

type Account = keyof typeof DEMO_ACCOUNTS;

/**
 * Makes the configured passwords of the demo accounts the ones that authenticate, in a store
 * that was seeded earlier with others (decision 0103): `APIKIT_ADMIN_PASSWORD` changed between
 * two starts rotates the password, and the account's refresh-token families are spent with it.
 * Accounts the store does not hold, or that already take the password, are left alone.
 * Resolves with the emails whose password changed.
 *
 * @example
 * await applyDemoPasswords(ctx, { admin: process.env.APIKIT_ADMIN_PASSWORD }); // ['admin@example.com']
 */
export async function applyDemoPasswords(
  ctx: DomainContext,
  configured: Partial<Record<Account, string>>,
): Promise<string[]> {
  const changed: string[] = [];
  for (const [account, password] of Object.entries(configured) as [Account, string][]) {
    if (password === undefined) continue;
    const email = DEMO_ACCOUNTS[account];
    const [user] = await ctx.repo.usersByEmail(email);
    if (user === undefined || (await opens(ctx, password, user.passwordHash))) continue;
    // Hashed outside the transaction: a transaction may run more than once (Repository).
    const passwordHash = await ctx.passwords.hash(password);
    const now = ctx.clock().toISOString();
    const rotated = await ctx.repo.transact(async (tx) => {
      const current = await tx.user(user.id);
      if (current === undefined || current.passwordHash !== user.passwordHash) return false;
      await tx.putUser({ ...current, passwordHash });
      await tx.spendRefreshTokens({ userId: current.id }, now);
      return true;
    });
    if (rotated) changed.push(email);
  }
  return changed;
}

/**
 * The demo accounts whose stored password is one of the documented demo passwords: a server
 * reachable from outside must hold none (decision 0103), whatever its environment says.
 */
export async function accountsOpenedByDemoPasswords(ctx: DomainContext): Promise<string[]> {
  const demo = Object.values(DOMAIN_DEFAULTS.demoPasswords);
  const open: string[] = [];
  for (const email of Object.values(DEMO_ACCOUNTS)) {
    const [user] = await ctx.repo.usersByEmail(email);
    for (const password of demo)
      if (user && (await opens(ctx, password, user.passwordHash))) open.push(email);
  }
  return [...new Set(open)];
}

async function opens(ctx: DomainContext, password: string, hash: string | null | undefined) {
  return typeof hash === 'string' && (await ctx.passwords.verify(password, hash));
}
