-- AlterTable
ALTER TABLE "child_registry" ADD COLUMN     "suspended_at" TIMESTAMPTZ(3),
ADD COLUMN     "suspended_by" TEXT;
