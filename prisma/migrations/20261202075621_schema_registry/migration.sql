-- CreateEnum
CREATE TYPE "SchemaType" AS ENUM ('AVRO', 'JSON', 'PROTOBUF');

-- CreateEnum
CREATE TYPE "CompatibilityLevel" AS ENUM ('NONE', 'BACKWARD', 'BACKWARD_TRANSITIVE', 'FORWARD', 'FORWARD_TRANSITIVE', 'FULL', 'FULL_TRANSITIVE');

-- CreateEnum
CREATE TYPE "SchemaMode" AS ENUM ('READWRITE', 'READONLY', 'IMPORT');

-- CreateTable
CREATE TABLE "registered_schema" (
    "id" SERIAL NOT NULL,
    "schema_type" "SchemaType" NOT NULL,
    "schema" TEXT NOT NULL,
    "canonical" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "references" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "registered_schema_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subject_version" (
    "subject" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "schema_id" INTEGER NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subject_version_pkey" PRIMARY KEY ("subject","version")
);

-- CreateTable
CREATE TABLE "schema_config" (
    "subject" TEXT NOT NULL,
    "compatibility" "CompatibilityLevel",
    "mode" "SchemaMode",
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "schema_config_pkey" PRIMARY KEY ("subject")
);

-- CreateIndex
CREATE UNIQUE INDEX "registered_schema_fingerprint_key" ON "registered_schema"("fingerprint");

-- CreateIndex
CREATE INDEX "registered_schema_references_idx" ON "registered_schema" USING GIN ("references" jsonb_path_ops);

-- CreateIndex
CREATE INDEX "subject_version_schema_id_idx" ON "subject_version"("schema_id");

-- AddForeignKey
ALTER TABLE "subject_version" ADD CONSTRAINT "subject_version_schema_id_fkey" FOREIGN KEY ("schema_id") REFERENCES "registered_schema"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
