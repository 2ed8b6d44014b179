-- Failed sign-in counts, shared by every instance of the service so that AUTH_FAILURE_LIMIT holds
-- across all of them. One row per (user name, client address) and one per client address, keyed
-- by a SHA-256 of them (no names or addresses in clear). Unlogged: a crash of the server forgets
-- the counts, which only forgives some failures, and the table costs no WAL (replicas lack it).
CREATE UNLOGGED TABLE "auth_failures" (
    "key" BYTEA NOT NULL,
    "count" INTEGER NOT NULL,
    "reset_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "auth_failures_pkey" PRIMARY KEY ("key")
);

-- Counts one sign-in attempt before its password is checked, unless the pair or the address is
-- at its limit: then nothing is counted and the seconds to wait are returned (0: counted, go
-- ahead). The address lock makes check and count one step for all attempts from one address,
-- so attempts racing on several instances cannot all pass the last free count.
-- The migration runner splits scripts at every semicolon, even inside a function body, so the
-- body is an escape string whose statement ends are written \073 (the octal code of a semicolon).
CREATE FUNCTION "auth_failure_reserve"(
    pair_key BYTEA, address_key BYTEA, address_lock BIGINT,
    pair_limit INTEGER, address_limit INTEGER, window_ms INTEGER
) RETURNS INTEGER LANGUAGE plpgsql AS E'
DECLARE
    t TIMESTAMPTZ\073
    wait INTEGER\073
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
    INSERT INTO auth_failures AS f (key, count, reset_at)
    VALUES (pair_key, 1, t + window_ms * interval ''1 millisecond''),
           (address_key, 1, t + window_ms * interval ''1 millisecond'')
    ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN f.reset_at <= t THEN 1 ELSE f.count + 1 END,
        reset_at = CASE WHEN f.reset_at <= t THEN EXCLUDED.reset_at ELSE f.reset_at END\073
    RETURN 0\073
END
';
