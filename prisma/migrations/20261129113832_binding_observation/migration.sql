-- CreateEnum
CREATE TYPE "HealthStatus" AS ENUM ('UP', 'DOWN');

-- CreateTable
CREATE TABLE "cluster_health" (
    "cluster_id" UUID NOT NULL,
    "status" "HealthStatus" NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL,
    "latency_ms" DOUBLE PRECISION,
    "broker_count" INTEGER,
    "details" JSONB,
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),
    "last_up_at" TIMESTAMPTZ(3),

    CONSTRAINT "cluster_health_pkey" PRIMARY KEY ("cluster_id")
);

-- CreateTable
CREATE TABLE "binding_observation" (
    "binding_id" UUID NOT NULL,
    "message" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "observed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "binding_observation_pkey" PRIMARY KEY ("binding_id")
);

-- CreateIndex
CREATE INDEX "binding_observation_observed_at_idx" ON "binding_observation"("observed_at");

-- AddForeignKey
ALTER TABLE "cluster_health" ADD CONSTRAINT "cluster_health_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "binding_observation" ADD CONSTRAINT "binding_observation_binding_id_fkey" FOREIGN KEY ("binding_id") REFERENCES "binding"("id") ON DELETE CASCADE ON UPDATE CASCADE;
