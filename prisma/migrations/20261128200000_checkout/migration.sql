-- Check-out of business objects: who holds the object (masters.checked_out_by, since when) and
-- the working copy the holder's changes go to (an iteration with working = true, never latest).
-- At most one working copy per master: a second check-out racing the first fails on the key.
ALTER TABLE "masters" ADD COLUMN "checked_out_by" INTEGER REFERENCES "users"("id");
ALTER TABLE "masters" ADD COLUMN "checked_out_at" TIMESTAMPTZ(3);
ALTER TABLE "iterations" ADD COLUMN "working" BOOLEAN NOT NULL DEFAULT false;
CREATE UNIQUE INDEX "iterations_one_working_per_master" ON "iterations" ("master_id") WHERE "working";
CREATE INDEX "masters_checked_out_by_idx" ON "masters" ("checked_out_by") WHERE "checked_out_by" IS NOT NULL;
