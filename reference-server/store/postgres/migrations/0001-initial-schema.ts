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
CREATE UNIQUE INDEX users_email_key ON users (email_key);
CREATE INDEX users_name ON users (name COLLATE "C", id);
CREATE INDEX users_email ON users (email COLLATE "C", id);
CREATE INDEX users_age ON users (age, id);
CREATE INDEX users_created_at ON users (created_at_ms, id);
CREATE INDEX users_status ON users (status, id);

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
