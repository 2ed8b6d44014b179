-- thePersistInfo.createStamp and modifyStamp of masters and usage links, which the report
-- templates of Windchill read on every persistable. New rows take the time they are inserted, the
-- modified_at of a master moves when its own fields (name, number, attributes) change, that of a
-- link when the link does. The defaults are not volatile: adding the columns rewrites no table.
-- (No semicolons in these comments: the pg adapter of the schema engine splits the script on them.)

-- AlterTable
ALTER TABLE "masters" ADD COLUMN "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN "modified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "usage_links" ADD COLUMN "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN "modified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Existing masters: made with their first iteration, last changed with their last one (one pass
-- over iterations, aggregated per master). A master without iterations keeps the migration time.
UPDATE "masters" m
SET "created_at" = i."first_created", "modified_at" = GREATEST(i."first_created", i."last_modified")
FROM (
  SELECT "master_id", min("created_at") AS "first_created", max("modified_at") AS "last_modified"
  FROM "iterations"
  GROUP BY "master_id"
) i
WHERE m."id" = i."master_id";

-- Existing usage links: made with the iteration that holds them, unchanged since.
UPDATE "usage_links" ul
SET "created_at" = i."created_at", "modified_at" = i."created_at"
FROM "iterations" i
WHERE i."id" = ul."parent_id";
