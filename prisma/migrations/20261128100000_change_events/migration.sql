-- Change events leave the database from the audit trail, which every write fills in its own
-- transaction (a transactional outbox). event_log gives each event its place in commit order:
-- a deferred trigger appends the transaction's events when it commits, under one advisory lock
-- held until the commit is visible, so a reader that sees position N sees every committed event
-- before N, and a position never appears behind one a reader has passed. audit_events.id is
-- drawn at insert, not at commit, so a cursor on it could skip a transaction that commits late.
CREATE TABLE "event_log" (
    "position" BIGSERIAL NOT NULL,
    "event_id" BIGINT NOT NULL,
    "logged_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),

    CONSTRAINT "event_log_pkey" PRIMARY KEY ("position")
);
CREATE INDEX "event_log_logged_at_idx" ON "event_log" ("logged_at");

-- Appends one event at commit (deferred: a transaction's events fire in the order they were
-- recorded). The lock (one fixed key) is taken by the first event of the transaction and kept
-- until it has committed, so positions follow commits. One notice per transaction (identical
-- notices are folded) wakes the delivery loops.
CREATE FUNCTION "event_log_append"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM pg_advisory_xact_lock(7362010413589110001)\073
    INSERT INTO event_log (event_id) VALUES (NEW.id)\073
    PERFORM pg_notify(''pdm_events'', '''')\073
    RETURN NULL\073
END';

CREATE CONSTRAINT TRIGGER "audit_events_log" AFTER INSERT ON "audit_events"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "event_log_append"();

-- Everything already recorded is in the log, in id order.
INSERT INTO "event_log" ("event_id", "logged_at") SELECT "id", "at" FROM "audit_events" ORDER BY "id";

-- A subscription: which events (actions, container, type, state), where they go (a webhook URL
-- a NATS subject prefix, an AMQP routing key prefix), and how far delivery has come: cursor is the last position handled,
-- attempts the failed tries of the next one. The lease says which instance delivers it now.
CREATE TABLE "event_subscriptions" (
    "id" SERIAL NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "actions" TEXT[] NOT NULL,
    "container_id" INTEGER,
    "type" TEXT,
    "state" TEXT,
    "target_kind" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "secret" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "paused_reason" TEXT,
    "cursor" BIGINT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),
    "delivered" BIGINT NOT NULL DEFAULT 0,
    "failures" BIGINT NOT NULL DEFAULT 0,
    "last_delivered_at" TIMESTAMPTZ(3),
    "lease_owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_subscriptions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "event_subscriptions_target_kind_check" CHECK ("target_kind" IN ('webhook', 'nats', 'amqp'))
);
CREATE UNIQUE INDEX "event_subscriptions_owner_id_name_key" ON "event_subscriptions" ("owner_id", "name");
CREATE INDEX "event_subscriptions_container_id_idx" ON "event_subscriptions" ("container_id");
ALTER TABLE "event_subscriptions" ADD CONSTRAINT "event_subscriptions_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "event_subscriptions" ADD CONSTRAINT "event_subscriptions_container_id_fkey" FOREIGN KEY ("container_id") REFERENCES "containers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Events a subscription gave up on after its attempts, kept until re-delivered or deleted.
-- event_id names the audit event, which outlives the log's pruning.
CREATE TABLE "event_dead_letters" (
    "id" BIGSERIAL NOT NULL,
    "subscription_id" INTEGER NOT NULL,
    "event_id" BIGINT NOT NULL,
    "position" BIGINT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "last_error" TEXT NOT NULL,
    "failed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "requeued_at" TIMESTAMPTZ(3),

    CONSTRAINT "event_dead_letters_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "event_dead_letters_subscription_id_id_idx" ON "event_dead_letters" ("subscription_id", "id");
ALTER TABLE "event_dead_letters" ADD CONSTRAINT "event_dead_letters_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "event_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
