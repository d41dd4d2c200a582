-- CreateTable
CREATE TABLE "parent_link" (
    "id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "credential" TEXT,
    "parent_registry_id" UUID,
    "parent_path" TEXT,
    "ancestors" JSONB NOT NULL DEFAULT '[]',
    "generation" INTEGER NOT NULL DEFAULT 1,
    "observed_generation" INTEGER,
    "pending_creates" JSONB,
    "phase" "Phase" NOT NULL DEFAULT 'PENDING',
    "message" TEXT,
    "status_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "parent_link_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "parent_link_observation" (
    "link_id" UUID NOT NULL,
    "message" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "observed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "parent_link_observation_pkey" PRIMARY KEY ("link_id")
);

-- CreateTable
CREATE TABLE "child_registry" (
    "id" UUID NOT NULL,
    "registry_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "sdl" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "credential_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "child_registry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "child_registry_health" (
    "child_id" UUID NOT NULL,
    "status" "HealthStatus" NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL,
    "latency_ms" DOUBLE PRECISION,
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),
    "last_up_at" TIMESTAMPTZ(3),

    CONSTRAINT "child_registry_health_pkey" PRIMARY KEY ("child_id")
);

-- CreateIndex
CREATE INDEX "parent_link_observation_observed_at_idx" ON "parent_link_observation"("observed_at");

-- CreateIndex
CREATE UNIQUE INDEX "child_registry_registry_id_key" ON "child_registry"("registry_id");

-- CreateIndex
CREATE UNIQUE INDEX "child_registry_name_key" ON "child_registry"("name");

-- AddForeignKey
ALTER TABLE "parent_link_observation" ADD CONSTRAINT "parent_link_observation_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "parent_link"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "child_registry_health" ADD CONSTRAINT "child_registry_health_child_id_fkey" FOREIGN KEY ("child_id") REFERENCES "child_registry"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- At most one parent: a registry has one live link; a link it left is DELETING until it has
-- unregistered from that parent.
CREATE UNIQUE INDEX "parent_link_one_live" ON "parent_link" ((true)) WHERE "phase" <> 'DELETING';
