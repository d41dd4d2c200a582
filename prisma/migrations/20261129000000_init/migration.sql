-- CreateEnum
CREATE TYPE "Phase" AS ENUM ('PENDING', 'ONLINE', 'FAILED', 'DELETING');

-- CreateTable
CREATE TABLE "cluster" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cluster_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stream" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "producer_config" JSONB NOT NULL DEFAULT '{}',
    "consumer_config" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "deleting" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stream_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "binding" (
    "id" UUID NOT NULL,
    "stream_id" UUID NOT NULL,
    "cluster_id" UUID NOT NULL,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "config" JSONB NOT NULL DEFAULT '{}',
    "producer_config" JSONB NOT NULL DEFAULT '{}',
    "consumer_config" JSONB NOT NULL DEFAULT '{}',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "observed_generation" INTEGER,
    "phase" "Phase" NOT NULL DEFAULT 'PENDING',
    "message" TEXT,
    "status_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "binding_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL DEFAULT 1,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "run_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leased_by" TEXT,
    "leased_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "change" (
    "seq" BIGSERIAL NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_key" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "generation" INTEGER NOT NULL,
    "actor" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "data" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "change_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "cluster_name_key" ON "cluster"("name");

-- CreateIndex
CREATE UNIQUE INDEX "stream_name_key" ON "stream"("name");

-- CreateIndex
CREATE INDEX "binding_cluster_id_idx" ON "binding"("cluster_id");

-- CreateIndex
CREATE UNIQUE INDEX "binding_stream_id_cluster_id_key" ON "binding"("stream_id", "cluster_id");

-- CreateIndex
CREATE INDEX "job_run_at_idx" ON "job"("run_at");

-- CreateIndex
CREATE UNIQUE INDEX "job_kind_target_id_key" ON "job"("kind", "target_id");

-- CreateIndex
CREATE INDEX "change_entity_type_entity_key_idx" ON "change"("entity_type", "entity_key");

-- AddForeignKey
ALTER TABLE "binding" ADD CONSTRAINT "binding_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "stream"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "binding" ADD CONSTRAINT "binding_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
