-- How many rows of each kind the discovery index holds in each namespace below this registry's,
-- so that an unfiltered totalCount sums a few rows instead of counting tens of thousands.
CREATE TABLE "index_count" (
    "child_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "namespace" TEXT COLLATE "C" NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "index_count_pkey" PRIMARY KEY ("kind", "namespace")
);

CREATE INDEX "index_count_child" ON "index_count" ("child_id");

ALTER TABLE "index_count" ADD CONSTRAINT "index_count_child_id_fkey" FOREIGN KEY ("child_id") REFERENCES "child_registry"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "index_count" ("child_id", "kind", "namespace", "count")
SELECT "child_id", "kind", "namespace", count(*)::int FROM "index_entry" GROUP BY "child_id", "kind", "namespace";
