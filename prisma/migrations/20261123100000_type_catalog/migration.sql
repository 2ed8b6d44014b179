-- The type catalog: soft types and custom attributes on masters, users and containers, objects
-- and links of any catalog class stored generically, classes and soft types declared by users.

-- AlterTable
ALTER TABLE "masters" ADD COLUMN "soft_type" TEXT,
ADD COLUMN "attributes" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "users" ADD COLUMN "attributes" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "containers" ADD COLUMN "attributes" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "objects" (
    "id" SERIAL NOT NULL,
    "class" TEXT NOT NULL,
    "soft_type" TEXT,
    "number" TEXT,
    "name" TEXT,
    "state" TEXT,
    "container_id" INTEGER,
    "created_by" INTEGER,
    "modified_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "props" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "objects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "links" (
    "id" SERIAL NOT NULL,
    "class" TEXT NOT NULL,
    "soft_type" TEXT,
    "role_a_id" INTEGER NOT NULL,
    "role_b_id" INTEGER NOT NULL,
    "container_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "props" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_types" (
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "spec" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalog_types_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "masters_soft_type_idx" ON "masters"("soft_type");

-- CreateIndex
CREATE INDEX "objects_class_soft_type_idx" ON "objects"("class", "soft_type");

-- CreateIndex
CREATE INDEX "objects_number_idx" ON "objects"("number");

-- CreateIndex
CREATE INDEX "objects_name_idx" ON "objects"("name");

-- CreateIndex
CREATE INDEX "objects_state_idx" ON "objects"("state");

-- CreateIndex
CREATE INDEX "objects_container_id_idx" ON "objects"("container_id");

-- CreateIndex
CREATE UNIQUE INDEX "objects_class_number_key" ON "objects"("class", "number");

-- CreateIndex
CREATE INDEX "links_class_role_a_id_idx" ON "links"("class", "role_a_id");

-- CreateIndex
CREATE INDEX "links_class_role_b_id_idx" ON "links"("class", "role_b_id");

-- CreateIndex
CREATE INDEX "links_container_id_idx" ON "links"("container_id");

-- CreateIndex
CREATE UNIQUE INDEX "links_class_role_a_id_role_b_id_key" ON "links"("class", "role_a_id", "role_b_id");

-- AddForeignKey
ALTER TABLE "objects" ADD CONSTRAINT "objects_container_id_fkey" FOREIGN KEY ("container_id") REFERENCES "containers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "objects" ADD CONSTRAINT "objects_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "objects" ADD CONSTRAINT "objects_modified_by_fkey" FOREIGN KEY ("modified_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "links" ADD CONSTRAINT "links_container_id_fkey" FOREIGN KEY ("container_id") REFERENCES "containers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
