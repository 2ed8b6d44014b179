-- Opening a query session over a million matches reads the masters in number order from
-- masters_number_idx and each one's latest iteration from iterations_one_latest_per_master.
-- Both indexes now carry the ids as well, so that neither table is read for it (index-only
-- scans). Same names, same uniqueness, same uses otherwise.
DROP INDEX "masters_number_idx";
CREATE INDEX "masters_number_idx" ON "masters" ("number") INCLUDE ("id");

DROP INDEX "iterations_one_latest_per_master";
CREATE UNIQUE INDEX "iterations_one_latest_per_master" ON "iterations" ("master_id") INCLUDE ("id") WHERE "latest";
