/**
 * Who holds an Idempotency-Key claim (decision 0109). Each instance takes a number from
 * `apikit_claim_owners` at start and holds a session-level advisory lock on it for as long as
 * it lives (`claim-owner.ts`); its claims record the number in `owner`. An instance that finds a
 * claim of another number whose lock it can take (shared) knows that session is gone, its
 * process with it, and claims the key at once instead of waiting out the lease. Older rows and
 * instances leave `owner` null: their claims are held until their lease runs out, as before.
 */
export const claimOwners = `
CREATE SEQUENCE apikit_claim_owners AS integer CYCLE;
ALTER TABLE idempotency ADD COLUMN owner integer;
`;
