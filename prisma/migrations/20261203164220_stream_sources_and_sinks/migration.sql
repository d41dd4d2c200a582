-- Stream sources and sinks (issue 22): one table each, the same columns (store/src/connectors.ts).
-- CreateEnum
CREATE TYPE "ConnectorRunState" AS ENUM ('RUNNING', 'PAUSED', 'STOPPED');

-- AlterTable
ALTER TABLE "secret_envelope" ADD COLUMN     "sink_id" UUID,
ADD COLUMN     "source_id" UUID;

-- CreateTable
CREATE TABLE "stream_source" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "cluster_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "desired_state" "ConnectorRunState" NOT NULL DEFAULT 'RUNNING',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "observed_generation" INTEGER,
    "pending_creates" JSONB,
    "phase" "Phase" NOT NULL DEFAULT 'PENDING',
    "message" TEXT,
    "status_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "auto_restarts" INTEGER NOT NULL DEFAULT 0,
    "last_restart_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stream_source_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stream_source_observation" (
    "source_id" UUID NOT NULL,
    "message" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "observed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stream_source_observation_pkey" PRIMARY KEY ("source_id")
);

-- CreateTable
CREATE TABLE "stream_sink" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "cluster_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "desired_state" "ConnectorRunState" NOT NULL DEFAULT 'RUNNING',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "observed_generation" INTEGER,
    "pending_creates" JSONB,
    "phase" "Phase" NOT NULL DEFAULT 'PENDING',
    "message" TEXT,
    "status_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "auto_restarts" INTEGER NOT NULL DEFAULT 0,
    "last_restart_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stream_sink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stream_sink_observation" (
    "sink_id" UUID NOT NULL,
    "message" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "observed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stream_sink_observation_pkey" PRIMARY KEY ("sink_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "stream_source_name_key" ON "stream_source"("name");

-- CreateIndex
CREATE INDEX "stream_source_cluster_id_idx" ON "stream_source"("cluster_id");

-- CreateIndex
CREATE INDEX "stream_source_observation_observed_at_idx" ON "stream_source_observation"("observed_at");

-- CreateIndex
CREATE UNIQUE INDEX "stream_sink_name_key" ON "stream_sink"("name");

-- CreateIndex
CREATE INDEX "stream_sink_cluster_id_idx" ON "stream_sink"("cluster_id");

-- CreateIndex
CREATE INDEX "stream_sink_observation_observed_at_idx" ON "stream_sink_observation"("observed_at");

-- CreateIndex
CREATE UNIQUE INDEX "secret_envelope_source_id_key" ON "secret_envelope"("source_id");

-- CreateIndex
CREATE UNIQUE INDEX "secret_envelope_sink_id_key" ON "secret_envelope"("sink_id");

-- AddForeignKey
ALTER TABLE "secret_envelope" ADD CONSTRAINT "secret_envelope_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "stream_source"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "secret_envelope" ADD CONSTRAINT "secret_envelope_sink_id_fkey" FOREIGN KEY ("sink_id") REFERENCES "stream_sink"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stream_source" ADD CONSTRAINT "stream_source_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stream_source_observation" ADD CONSTRAINT "stream_source_observation_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "stream_source"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stream_sink" ADD CONSTRAINT "stream_sink_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stream_sink_observation" ADD CONSTRAINT "stream_sink_observation_sink_id_fkey" FOREIGN KEY ("sink_id") REFERENCES "stream_sink"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One owner column per kind of object; exactly one is set (sources and sinks too).
ALTER TABLE "secret_envelope" DROP CONSTRAINT "secret_envelope_one_owner";
ALTER TABLE "secret_envelope" ADD CONSTRAINT "secret_envelope_one_owner"
  CHECK (num_nonnulls("cluster_id", "stream_id", "binding_id", "source_id", "sink_id") = 1);
