-- A session keeps the fields and associations its open asked for, so that its page fetches
-- (which name neither) answer with the same. NULL: the default item, no associations.
ALTER TABLE "query_sessions" ADD COLUMN "fields" JSONB,
ADD COLUMN "associations" JSONB;
