-- Issue 19: nothing at rest lets a copy of a database act as a registry. A registered child now
-- proves itself to its parent with its signing keys (registry_key, sealed with
-- REGISTRY_SECRET_KEYS), so the bearer secrets kept in clear go: the child's copy of its parent's
-- enrollment token and the credential the parent gave it, and the parent's hash of that credential.
-- Registrations stay: the parent holds each child's keys (child_registry.keys). The values are
-- blanked before the columns go, so that the rows are rewritten without them; copies made before
-- (backups) still hold the enrollment token: change REGISTRY_ENROLLMENT_TOKEN after upgrading.
UPDATE "parent_link" SET "token" = '', "credential" = NULL;

-- AlterTable
ALTER TABLE "child_registry" DROP COLUMN "credential_hash";

-- AlterTable
ALTER TABLE "parent_link" DROP COLUMN "credential",
DROP COLUMN "token";

-- CreateTable
CREATE TABLE "registration_proof" (
    "jti" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "registration_proof_pkey" PRIMARY KEY ("jti")
);

-- CreateIndex
CREATE INDEX "registration_proof_expires_at_idx" ON "registration_proof"("expires_at");
