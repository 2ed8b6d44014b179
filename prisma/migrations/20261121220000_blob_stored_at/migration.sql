-- When the bytes of a blob were last stored (an upload of bytes that exist refreshes it). The
-- sweep deletes blobs that no content item uses only when this is older than its grace period,
-- so it never takes bytes that an upload has stored but not yet recorded.
ALTER TABLE "content_blobs" ADD COLUMN "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
CREATE INDEX "content_blobs_stored_at_idx" ON "content_blobs" ("stored_at");
