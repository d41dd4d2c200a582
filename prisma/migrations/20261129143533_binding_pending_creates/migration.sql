-- AlterTable
ALTER TABLE "binding" ADD COLUMN     "pending_creates" JSONB DEFAULT '[]';

-- Bindings never realized before the journal existed may have had a create sent: unknown.
UPDATE "binding" SET "pending_creates" = NULL WHERE "observed_generation" IS NULL;
