/**
 * Rate-limit counters shared by every instance (decision 0086): one row per policy and key,
 * its window opened by the key's first request. UNLOGGED: counts need no crash safety (a lost
 * window only forgives a minute), and skipping the WAL keeps a hit to one cheap upsert.
 */
export const rateLimitWindows = `
CREATE UNLOGGED TABLE apikit_rate_limit_windows (
  policy text NOT NULL,
  key text NOT NULL,
  hits integer NOT NULL,
  reset_at timestamptz NOT NULL,
  PRIMARY KEY (policy, key)
);
CREATE INDEX apikit_rate_limit_windows_reset ON apikit_rate_limit_windows (reset_at);
`;
