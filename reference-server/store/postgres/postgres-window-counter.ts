import type pg from 'pg';
import type { WindowCounter } from '../../http/window-counter.js';

/*
 * One statement per hit: the row's window restarts when it is over, else its count goes up.
 * The database's clock decides both, so instances with skewed clocks still share one window.
 */
const HIT = `
INSERT INTO apikit_rate_limit_windows AS w (policy, key, hits, reset_at)
VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 millisecond')
ON CONFLICT (policy, key) DO UPDATE SET
  hits = CASE WHEN w.reset_at <= clock_timestamp() THEN 1 ELSE w.hits + 1 END,
  reset_at = CASE WHEN w.reset_at <= clock_timestamp()
    THEN clock_timestamp() + $3 * interval '1 millisecond' ELSE w.reset_at END
RETURNING hits, extract(epoch from (reset_at - clock_timestamp())) * 1000 AS reset_in_ms`;

const SWEEP = `DELETE FROM apikit_rate_limit_windows WHERE reset_at < clock_timestamp()`;

/**
 * A policy's counter in PostgreSQL, shared by every instance on the database: `N` instances
 * spend one budget, not `N` (decision 0086). Windows over are swept once a window by each
 * instance (a cheap indexed delete; several instances sweeping is harmless).
 *
 * @example
 * const counter = postgresWindowCounter(pool, 'default', 60_000);
 * await counter.hit('42'); // { hits: 1, resetInMs: 60000 }
 */
export function postgresWindowCounter(
  pool: pg.Pool,
  policy: string,
  windowMs: number,
): WindowCounter {
  setInterval(() => {
    pool.query(SWEEP).catch(() => undefined);
  }, windowMs).unref();
  return {
    async hit(key) {
      const { rows } = await pool.query<{ hits: number; reset_in_ms: number }>(HIT, [
        policy,
        key,
        windowMs,
      ]);
      const row = rows[0];
      if (row === undefined) throw new Error('rate-limit upsert returned no row');
      return { hits: row.hits, resetInMs: Math.max(0, Number(row.reset_in_ms)) };
    },
  };
}
