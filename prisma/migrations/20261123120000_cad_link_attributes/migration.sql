-- The number service's attribute purposes: custom attributes and a reference designator on the
-- links of the used relation (EPMMemberLink), and the check-in note an iteration was made with.

-- AlterTable
ALTER TABLE "usage_links" ADD COLUMN "reference_number" TEXT,
ADD COLUMN "attributes" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "iterations" ADD COLUMN "note" TEXT;
