-- Which store holds the bytes of a blob: postgres (blob_chunks), filesystem (the vault directory)
-- or s3 (an S3-compatible bucket). Recorded per blob, so content can move between stores online.
ALTER TABLE "content_blobs" ADD COLUMN "store" TEXT NOT NULL DEFAULT 'postgres';
ALTER TABLE "content_blobs" ADD CONSTRAINT "content_blobs_store_check" CHECK ("store" IN ('postgres', 'filesystem', 's3'));
CREATE INDEX "content_blobs_store_idx" ON "content_blobs" ("store");
