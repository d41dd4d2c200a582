-- AlterTable
ALTER TABLE "binding" ADD COLUMN     "pending_create" JSONB;
