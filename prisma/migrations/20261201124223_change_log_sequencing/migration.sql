-- The change log is numbered after commit, so writers need no global lock (docs/architecture.md,
-- "Writers in parallel"): writers insert entries with "seq" null, and readers number the committed
-- ones, in id order, under a lock only numbering takes. Existing entries keep their seq; their id
-- is that seq, and ids go on from there.
ALTER TABLE "change" RENAME COLUMN "seq" TO "id";
ALTER SEQUENCE "change_seq_seq" RENAME TO "change_id_seq";
ALTER TABLE "change" ADD COLUMN "seq" BIGINT;
UPDATE "change" SET "seq" = "id";
CREATE UNIQUE INDEX "change_seq_key" ON "change"("seq");
