-- Resumable uploads (the tus protocol) under way: who made each, for which file, how large it
-- will be and when it expires. The bytes received so far are in the upload spool directory
-- (FILES_TUS_DIR), one file per upload named by its id. info holds what the tus server keeps
-- of the upload (size, metadata, creation date). A row goes when its upload completes, is
-- terminated, or has expired and been swept.
CREATE TABLE "tus_uploads" (
    "id" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "ref" TEXT NOT NULL,
    "holder_type" TEXT,
    "file_name" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "length" BIGINT NOT NULL,
    "info" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tus_uploads_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "tus_uploads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "tus_uploads_user_id_idx" ON "tus_uploads" ("user_id");
CREATE INDEX "tus_uploads_expires_at_idx" ON "tus_uploads" ("expires_at");
