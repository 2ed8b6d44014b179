-- Notices that let every instance trust its cached sign-ins without asking the database on each
-- request. On the channel pdm_auth: u<user id> when a user row changed or went (whoever changed
-- it: the admin API, an import, plain SQL), t<key in hex>:<reset time in ms since 1970> when a
-- sign-in failure count reached its limit. Notices are sent when the change commits.
-- The migration runner splits scripts at every semicolon, even inside a function body, so the
-- bodies are escape strings whose statement ends are written \073 (the octal code of a semicolon).
CREATE FUNCTION "users_auth_notice"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM pg_notify(''pdm_auth'', ''u'' || OLD.id)\073
    RETURN NULL\073
END
';

CREATE TRIGGER "users_auth_notice_update" AFTER UPDATE ON "users" FOR EACH ROW
    WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash OR OLD.disabled IS DISTINCT FROM NEW.disabled
          OR OLD.name IS DISTINCT FROM NEW.name OR OLD.admin IS DISTINCT FROM NEW.admin
          OR OLD.full_name IS DISTINCT FROM NEW.full_name OR OLD.email IS DISTINCT FROM NEW.email
          OR OLD.id IS DISTINCT FROM NEW.id)
    EXECUTE FUNCTION "users_auth_notice"();

CREATE TRIGGER "users_auth_notice_delete" AFTER DELETE ON "users" FOR EACH ROW
    EXECUTE FUNCTION "users_auth_notice"();

-- As before (20261123140000_auth_failures), and a notice for each count the attempt brought to
-- its limit, so that instances check the cached sign-ins of that pair or address again.
CREATE OR REPLACE FUNCTION "auth_failure_reserve"(
    pair_key BYTEA, address_key BYTEA, address_lock BIGINT,
    pair_limit INTEGER, address_limit INTEGER, window_ms INTEGER
) RETURNS INTEGER LANGUAGE plpgsql AS E'
DECLARE
    t TIMESTAMPTZ\073
    wait INTEGER\073
    r RECORD\073
BEGIN
    PERFORM pg_advisory_xact_lock(address_lock)\073
    t := clock_timestamp()\073
    SELECT max(greatest(1, ceil(extract(epoch FROM f.reset_at - t))))::integer INTO wait
    FROM auth_failures f
    WHERE f.reset_at > t
      AND ((f.key = pair_key AND f.count >= pair_limit) OR (f.key = address_key AND f.count >= address_limit))\073
    IF wait IS NOT NULL THEN
        RETURN wait\073
    END IF\073
    FOR r IN
        INSERT INTO auth_failures AS f (key, count, reset_at)
        VALUES (pair_key, 1, t + window_ms * interval ''1 millisecond''),
               (address_key, 1, t + window_ms * interval ''1 millisecond'')
        ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN f.reset_at <= t THEN 1 ELSE f.count + 1 END,
            reset_at = CASE WHEN f.reset_at <= t THEN EXCLUDED.reset_at ELSE f.reset_at END
        RETURNING f.key, f.count, f.reset_at
    LOOP
        IF (r.key = pair_key AND r.count >= pair_limit) OR (r.key = address_key AND r.count >= address_limit) THEN
            PERFORM pg_notify(''pdm_auth'', ''t'' || encode(r.key, ''hex'') || '':''
                || floor(extract(epoch FROM r.reset_at) * 1000)::bigint)\073
        END IF\073
    END LOOP\073
    RETURN 0\073
END
';
