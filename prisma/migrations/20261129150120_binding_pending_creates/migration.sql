-- AlterTable
ALTER TABLE "binding" ADD COLUMN     "pending_creates" JSONB;
