-- AlterTable
ALTER TABLE "child_registry" ADD COLUMN     "keys" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "parent_link" ADD COLUMN     "keys" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "registry_key" (
    "kid" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "private_key" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "registry_key_pkey" PRIMARY KEY ("kid")
);

