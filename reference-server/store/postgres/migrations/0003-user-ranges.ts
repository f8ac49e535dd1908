/**
 * How many users each range of 4,096 ids holds, by status (decision 0093), so that a deep page
 * of the id order starts from its range instead of walking every index entry before it (page
 * 49990 at 1,000,000 users: 999,800 entries, 1.2 s at p99 under load). A range is named by its
 * first id; the reader needs no width, only the ranges present. Kept by statement triggers like
 * the totals, and filled from the users already there when this migration runs late.
 *
 * A write adds its change in one of 64 rows of its range and status, by `id % 64`, as the
 * totals are split: concurrent creates (consecutive ids) then update different rows rather
 * than conflicting over one. `apikit_fold_user_ranges()` folds those rows into one more, shard
 * -1, in every range but the two newest (where creates land), so that a page sums about one row
 * per range and status; the repository runs it as housekeeping and after a load.
 */
export const userRanges = `
CREATE TABLE apikit_user_ranges (
  status text NOT NULL,
  first_id bigint NOT NULL,
  shard integer NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (status, first_id, shard)
);

CREATE FUNCTION apikit_count_user_ranges() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO apikit_user_ranges (status, first_id, shard, n)
      SELECT status, id - id % 4096, id % 64, count(*) FROM new_rows GROUP BY 1, 2, 3
      ON CONFLICT (status, first_id, shard) DO UPDATE SET n = apikit_user_ranges.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO apikit_user_ranges (status, first_id, shard, n)
      SELECT status, id - id % 4096, id % 64, -count(*) FROM old_rows GROUP BY 1, 2, 3
      ON CONFLICT (status, first_id, shard) DO UPDATE SET n = apikit_user_ranges.n + EXCLUDED.n;
  ELSE
    -- An id never changes; only a changed status moves a user between rows.
    INSERT INTO apikit_user_ranges (status, first_id, shard, n)
      SELECT changed.status, changed.id - changed.id % 4096, changed.id % 64, sum(changed.n)
      FROM (
        SELECT o.status, o.id, -1 AS n FROM old_rows o JOIN new_rows w USING (id)
         WHERE o.status <> w.status
        UNION ALL
        SELECT w.status, w.id, 1 AS n FROM old_rows o JOIN new_rows w USING (id)
         WHERE o.status <> w.status
      ) AS changed GROUP BY 1, 2, 3
      ON CONFLICT (status, first_id, shard) DO UPDATE SET n = apikit_user_ranges.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER users_ranges_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION apikit_count_user_ranges();
CREATE TRIGGER users_ranges_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION apikit_count_user_ranges();
CREATE TRIGGER users_ranges_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION apikit_count_user_ranges();

-- Emptied with the users, whoever truncates them: also an older apikit's reset, which names
-- only the tables it knows (a database upgraded by a newer apikit is used by an older one).
CREATE FUNCTION apikit_forget_user_ranges() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM apikit_user_ranges;
  RETURN NULL;
END $$;

CREATE TRIGGER users_ranges_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION apikit_forget_user_ranges();

-- Folds into shard -1, which no writer uses, so a fold never waits for a writer (the rows it
-- deletes are only those no writer holds: SKIP LOCKED) and cannot deadlock with one; a writer
-- that wanted a row folded meanwhile finds it gone and inserts it again (under SERIALIZABLE,
-- after a retry). One fold at a time across instances: a second would find nothing to add.
CREATE FUNCTION apikit_fold_user_ranges() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(1634757483, 2) THEN
    RETURN;
  END IF;
  WITH newest AS (
    SELECT high - high % 4096 - 4096 AS first_id
      FROM apikit_last_id('apikit_users_id_seq') AS high
  ), taken AS (
    SELECT r.ctid FROM apikit_user_ranges r, newest
     WHERE r.shard >= 0 AND r.first_id < newest.first_id
       FOR UPDATE OF r SKIP LOCKED
  ), folded AS (
    DELETE FROM apikit_user_ranges r USING taken WHERE r.ctid = taken.ctid
    RETURNING r.status, r.first_id, r.n
  )
  INSERT INTO apikit_user_ranges (status, first_id, shard, n)
    SELECT status, first_id, -1, sum(n) FROM folded GROUP BY 1, 2
    ON CONFLICT (status, first_id, shard) DO UPDATE SET n = apikit_user_ranges.n + EXCLUDED.n;
END $$;

INSERT INTO apikit_user_ranges (status, first_id, shard, n)
  SELECT status, id - id % 4096, -1, count(*) FROM users GROUP BY 1, 2;
`;
