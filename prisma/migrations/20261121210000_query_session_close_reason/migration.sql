-- A closed or expired session keeps its row (a tombstone without items) so that fetching it
-- again is answered 410 with the reason, while an id that never existed is answered 404.
ALTER TABLE "query_sessions" ADD COLUMN "close_reason" TEXT;
ALTER TABLE "query_sessions" ADD CONSTRAINT "query_sessions_close_reason_check"
  CHECK ("close_reason" IN ('closed', 'expired') AND "closed_at" IS NOT NULL OR "close_reason" IS NULL AND "closed_at" IS NULL);
