-- Audit events: one row per write of any service (files, numbers, objects, report templates,
-- administration), inserted in the transaction of the change it records, so a change and its
-- event are stored together or not at all. The user's name is kept beside the id: an event
-- outlives the user it names. detail holds the before and after of small changes.
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_id" INTEGER,
    "user_name" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "object_class" TEXT,
    "object_id" BIGINT,
    "object_number" TEXT,
    "container_id" INTEGER,
    "detail" JSONB,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_container_id_fkey" FOREIGN KEY ("container_id") REFERENCES "containers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The history of one object, the events of one user, and time windows, newest first.
CREATE INDEX "audit_events_object_idx" ON "audit_events"("object_class", "object_id", "id");
CREATE INDEX "audit_events_user_idx" ON "audit_events"("user_id", "id");
CREATE INDEX "audit_events_at_idx" ON "audit_events"("at");
