/**
 * The first schema (decision 0084). Plain SQL kept in a module so that tsc and the CLI bundle
 * carry it. Times stay the strings the domain wrote (a record reads back exactly as it was put);
 * beside the ones a query compares sits their instant in epoch milliseconds, computed by the
 * repository with `Date.parse` as the in-memory one compares them. `email_key` is the email
 * lower-cased by JavaScript (`toLowerCase`, Unicode-wide, whatever the database's locale), and
 * the unique index on it is what keeps an email to one user across every instance. Foreign keys
 * are deferred to the commit (a transaction may put an item before its order) and cascade.
 */
export const initialSchema = `
CREATE TABLE apikit_meta (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  created_at text NOT NULL
);

CREATE SEQUENCE apikit_users_id_seq AS bigint MINVALUE 0 START 1;
CREATE SEQUENCE apikit_orders_id_seq AS bigint MINVALUE 0 START 1;
CREATE SEQUENCE apikit_order_items_id_seq AS bigint MINVALUE 0 START 1;

CREATE TABLE users (
  id bigint PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  email_key text NOT NULL,
  age integer,
  status text NOT NULL,
  created_at text NOT NULL,
  created_at_ms double precision NOT NULL,
  updated_at text NOT NULL,
  role_ids integer[] NOT NULL,
  password_hash text
);
-- One user per email, enforced through a hash index: an exact lookup by email then locks (for
-- SERIALIZABLE) one hash bucket, where a btree would lock a leaf page that the neighbouring new
-- emails (bench-1@, bench-2@, ...) are inserted into, failing concurrent creates as conflicts.
-- Fill factor 10: 64 buckets from the start rather than 4 (a small table's creates conflicted
-- almost all), about 7 times the default's size as it grows.
ALTER TABLE users ADD CONSTRAINT users_email_unique EXCLUDE USING hash (email_key WITH =)
  WITH (fillfactor = 10);
-- The unblocked ADMINs, for the last-ADMIN rule (role id 2, the fixed catalog's ADMIN).
CREATE INDEX users_unblocked_admins ON users (id) WHERE status <> 'BLOCKED' AND role_ids @> '{2}';
-- A page of GET /users in each order it can be asked for (ties by id ascending either way),
-- read by an index-only scan up to its offset; and the filter by status.
CREATE INDEX users_name ON users (name COLLATE "C", id);
CREATE INDEX users_name_desc ON users (name COLLATE "C" DESC, id);
CREATE INDEX users_email ON users (email COLLATE "C", id);
CREATE INDEX users_email_desc ON users (email COLLATE "C" DESC, id);
CREATE INDEX users_age ON users (age ASC NULLS LAST, id);
CREATE INDEX users_age_desc ON users (age DESC NULLS LAST, id);
CREATE INDEX users_created_at ON users (created_at_ms, id);
CREATE INDEX users_created_at_desc ON users (created_at_ms DESC, id);
CREATE INDEX users_status ON users (status, id);

-- How many users there are by status, kept by statement triggers, so that a page's total is not
-- a count of a million rows. Split in 128 rows per status by id: concurrent creates (consecutive
-- ids) update different rows, rather than all waiting on, and conflicting over, one.
CREATE TABLE apikit_user_counts (
  status text NOT NULL,
  shard integer NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (status, shard)
);

CREATE FUNCTION apikit_count_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO apikit_user_counts (status, shard, n)
      SELECT status, id % 128, count(*) FROM new_rows GROUP BY 1, 2
      ON CONFLICT (status, shard) DO UPDATE SET n = apikit_user_counts.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO apikit_user_counts (status, shard, n)
      SELECT status, id % 128, -count(*) FROM old_rows GROUP BY 1, 2
      ON CONFLICT (status, shard) DO UPDATE SET n = apikit_user_counts.n + EXCLUDED.n;
  ELSE
    -- Only a changed status moves a user between counts; other updates write nothing here.
    INSERT INTO apikit_user_counts (status, shard, n)
      SELECT changed.status, changed.id % 128, sum(changed.n) FROM (
        SELECT o.status, o.id, -1 AS n FROM old_rows o JOIN new_rows w USING (id)
         WHERE o.status <> w.status
        UNION ALL
        SELECT w.status, w.id, 1 AS n FROM old_rows o JOIN new_rows w USING (id)
         WHERE o.status <> w.status
      ) AS changed GROUP BY 1, 2
      ON CONFLICT (status, shard) DO UPDATE SET n = apikit_user_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER users_count_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION apikit_count_users();
CREATE TRIGGER users_count_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION apikit_count_users();
CREATE TRIGGER users_count_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION apikit_count_users();

CREATE TABLE orders (
  id bigint PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  product text NOT NULL,
  category_id bigint NOT NULL,
  status text NOT NULL,
  created_at text NOT NULL,
  updated_at text NOT NULL
);
CREATE INDEX orders_user ON orders (user_id, id);

CREATE TABLE order_items (
  id bigint PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  product text NOT NULL,
  quantity bigint NOT NULL
);
CREATE INDEX order_items_order ON order_items (order_id, id);

CREATE TABLE refresh_tokens (
  hash text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  family_id text NOT NULL,
  created_at text NOT NULL,
  expires_at text NOT NULL,
  expires_at_ms double precision NOT NULL,
  spent_at text
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);

CREATE TABLE idempotency (
  scope text PRIMARY KEY,
  request_body text NOT NULL,
  status integer NOT NULL,
  headers json NOT NULL,
  body text,
  created_at text NOT NULL,
  expires_at text NOT NULL,
  expires_at_ms double precision NOT NULL
);
CREATE INDEX idempotency_expires ON idempotency (expires_at_ms);

-- Ids: a sequence per collection, never moved back. reserveId and nextId share an advisory lock
-- (exclusive for the former, shared for the latter, held for one call only), so that moving a
-- sequence forward cannot lose an id handed out between reading and setting it.
CREATE FUNCTION apikit_next_id(seq regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  id bigint;
BEGIN
  PERFORM pg_advisory_lock_shared(1634757483, 1);
  id := nextval(seq);
  PERFORM pg_advisory_unlock_shared(1634757483, 1);
  RETURN id;
END $$;

CREATE FUNCTION apikit_reserve_id(seq regclass, wanted bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  high bigint;
BEGIN
  PERFORM pg_advisory_lock(1634757483, 1);
  EXECUTE format('SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM %s', seq)
    INTO high;
  IF wanted > high THEN
    PERFORM setval(seq, wanted, true);
  END IF;
  PERFORM pg_advisory_unlock(1634757483, 1);
END $$;

-- The highest id handed out so far (what the in-memory data set calls its counter).
CREATE FUNCTION apikit_last_id(seq regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  high bigint;
BEGIN
  EXECUTE format('SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM %s', seq)
    INTO high;
  RETURN high;
END $$;
`;
