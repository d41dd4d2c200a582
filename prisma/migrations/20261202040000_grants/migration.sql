-- CreateEnum
CREATE TYPE "grant_role" AS ENUM ('reader', 'writer', 'admin');

-- CreateTable
CREATE TABLE "access_grant" (
    "id" UUID NOT NULL,
    "principal" TEXT NOT NULL,
    "role" "grant_role" NOT NULL,
    "scope" TEXT NOT NULL,
    "stream_prefix" TEXT NOT NULL DEFAULT '',
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "access_grant_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "access_grant_identity" ON "access_grant"("principal", "role", "scope", "stream_prefix");
