-- AlterTable
ALTER TABLE "index_follow" ADD COLUMN     "descendant_health" JSONB NOT NULL DEFAULT '[]';
