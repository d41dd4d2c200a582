-- CreateTable
CREATE TABLE "registry_settings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "registry_id" UUID NOT NULL,
    "name" TEXT,
    "generation" INTEGER NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "registry_settings_pkey" PRIMARY KEY ("id")
);
