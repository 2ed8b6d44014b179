-- CreateEnum
CREATE TYPE "member_role" AS ENUM ('reader', 'author', 'manager');

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "admin" BOOLEAN NOT NULL DEFAULT false,
    "full_name" TEXT,
    "email" TEXT,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "containers" (
    "id" SERIAL NOT NULL,
    "class" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "containers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "container_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "role" "member_role" NOT NULL,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("container_id","user_id")
);

-- CreateTable
CREATE TABLE "numbering_rules" (
    "id" SERIAL NOT NULL,
    "container_id" INTEGER NOT NULL,
    "class" TEXT NOT NULL,
    "prefix" TEXT NOT NULL DEFAULT '',
    "suffix" TEXT NOT NULL DEFAULT '',
    "width" INTEGER NOT NULL,
    "next" BIGINT NOT NULL DEFAULT 1,

    CONSTRAINT "numbering_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workspaces" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "container_id" INTEGER NOT NULL,
    "owner_id" INTEGER NOT NULL,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "masters" (
    "id" SERIAL NOT NULL,
    "class" TEXT NOT NULL,
    "subtype" TEXT,
    "number" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "container_id" INTEGER NOT NULL,

    CONSTRAINT "masters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "iterations" (
    "id" SERIAL NOT NULL,
    "master_id" INTEGER NOT NULL,
    "version" TEXT NOT NULL DEFAULT 'A',
    "iteration" INTEGER NOT NULL DEFAULT 1,
    "latest" BOOLEAN NOT NULL DEFAULT true,
    "state" TEXT NOT NULL DEFAULT 'INWORK',
    "title" TEXT,
    "description" TEXT,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "created_by" INTEGER NOT NULL,
    "modified_by" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "iterations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "content_roles" (
    "name" TEXT NOT NULL,

    CONSTRAINT "content_roles_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "content_blobs" (
    "sha256" CHAR(64) NOT NULL,
    "size" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "content_blobs_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "blob_chunks" (
    "sha256" CHAR(64) NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "blob_chunks_pkey" PRIMARY KEY ("sha256","seq")
);

-- CreateTable
CREATE TABLE "content_items" (
    "id" SERIAL NOT NULL,
    "iteration_id" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "content_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "usage_links" (
    "id" SERIAL NOT NULL,
    "class" TEXT NOT NULL,
    "parent_id" INTEGER NOT NULL,
    "child_id" INTEGER NOT NULL,
    "quantity" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "unit" TEXT NOT NULL DEFAULT 'ea',
    "line_number" BIGINT,

    CONSTRAINT "usage_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "report_templates" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "container_id" INTEGER NOT NULL,
    "description" TEXT,
    "qml" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "report_templates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "query_sessions" (
    "id" BIGSERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "query" JSONB NOT NULL,
    "total" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "query_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "query_session_items" (
    "session_id" BIGINT NOT NULL,
    "pos" INTEGER NOT NULL,
    "iteration_id" INTEGER NOT NULL,

    CONSTRAINT "query_session_items_pkey" PRIMARY KEY ("session_id","pos")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_name_key" ON "users"("name");

-- CreateIndex
CREATE UNIQUE INDEX "containers_name_key" ON "containers"("name");

-- CreateIndex
CREATE INDEX "memberships_user_id_idx" ON "memberships"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "numbering_rules_container_id_class_key" ON "numbering_rules"("container_id", "class");

-- CreateIndex
CREATE UNIQUE INDEX "workspaces_name_key" ON "workspaces"("name");

-- CreateIndex
CREATE INDEX "workspaces_container_id_idx" ON "workspaces"("container_id");

-- CreateIndex
CREATE INDEX "masters_container_id_idx" ON "masters"("container_id");

-- CreateIndex
CREATE INDEX "masters_number_idx" ON "masters"("number");

-- CreateIndex
CREATE UNIQUE INDEX "masters_class_number_key" ON "masters"("class", "number");

-- CreateIndex
CREATE INDEX "iterations_latest_master_id_idx" ON "iterations"("latest", "master_id");

-- CreateIndex
CREATE INDEX "iterations_modified_at_idx" ON "iterations"("modified_at");

-- CreateIndex
CREATE INDEX "iterations_created_by_idx" ON "iterations"("created_by");

-- CreateIndex
CREATE INDEX "iterations_modified_by_idx" ON "iterations"("modified_by");

-- CreateIndex
CREATE UNIQUE INDEX "iterations_master_id_version_iteration_key" ON "iterations"("master_id", "version", "iteration");

-- CreateIndex
CREATE INDEX "content_items_sha256_idx" ON "content_items"("sha256");

-- CreateIndex
CREATE UNIQUE INDEX "content_items_iteration_id_file_name_key" ON "content_items"("iteration_id", "file_name");

-- CreateIndex
CREATE INDEX "usage_links_parent_id_idx" ON "usage_links"("parent_id");

-- CreateIndex
CREATE INDEX "usage_links_child_id_idx" ON "usage_links"("child_id");

-- CreateIndex
CREATE UNIQUE INDEX "report_templates_name_key" ON "report_templates"("name");

-- CreateIndex
CREATE INDEX "report_templates_container_id_idx" ON "report_templates"("container_id");

-- CreateIndex
CREATE INDEX "query_sessions_user_id_closed_at_idx" ON "query_sessions"("user_id", "closed_at");

-- CreateIndex
CREATE INDEX "query_sessions_last_used_at_idx" ON "query_sessions"("last_used_at");

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_container_id_fkey" FOREIGN KEY ("container_id") REFERENCES "containers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "numbering_rules" ADD CONSTRAINT "numbering_rules_container_id_fkey" FOREIGN KEY ("container_id") REFERENCES "containers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_container_id_fkey" FOREIGN KEY ("container_id") REFERENCES "containers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "masters" ADD CONSTRAINT "masters_container_id_fkey" FOREIGN KEY ("container_id") REFERENCES "containers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "iterations" ADD CONSTRAINT "iterations_master_id_fkey" FOREIGN KEY ("master_id") REFERENCES "masters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "iterations" ADD CONSTRAINT "iterations_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "iterations" ADD CONSTRAINT "iterations_modified_by_fkey" FOREIGN KEY ("modified_by") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blob_chunks" ADD CONSTRAINT "blob_chunks_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "content_blobs"("sha256") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_iteration_id_fkey" FOREIGN KEY ("iteration_id") REFERENCES "iterations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_role_fkey" FOREIGN KEY ("role") REFERENCES "content_roles"("name") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "content_blobs"("sha256") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_links" ADD CONSTRAINT "usage_links_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "iterations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_links" ADD CONSTRAINT "usage_links_child_id_fkey" FOREIGN KEY ("child_id") REFERENCES "masters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_container_id_fkey" FOREIGN KEY ("container_id") REFERENCES "containers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "query_sessions" ADD CONSTRAINT "query_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "query_session_items" ADD CONSTRAINT "query_session_items_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "query_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written parts (Prisma 6 cannot express them in schema.prisma: keep them when
-- `prisma migrate dev` proposes to drop them).

-- At most one latest iteration per business object.
CREATE UNIQUE INDEX "iterations_one_latest_per_master" ON "iterations" ("master_id") WHERE "latest";

-- Prefix searches on numbers and names (LIKE 'abc%') use these.
CREATE INDEX "masters_number_pattern_idx" ON "masters" ("number" text_pattern_ops);
CREATE INDEX "masters_name_pattern_idx" ON "masters" ("name" text_pattern_ops);

ALTER TABLE "numbering_rules" ADD CONSTRAINT "numbering_rules_width_check" CHECK ("width" BETWEEN 1 AND 18);
ALTER TABLE "numbering_rules" ADD CONSTRAINT "numbering_rules_next_check" CHECK ("next" >= 0);
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_size_check" CHECK ("size" >= 0);
ALTER TABLE "blob_chunks" ADD CONSTRAINT "blob_chunks_seq_check" CHECK ("seq" >= 0);
