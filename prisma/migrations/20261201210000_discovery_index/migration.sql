-- A change-log entry of a namespace below this registry's (what it indexed of a child's feed): the
-- path below this registry's, e.g. "us-reg1-xyz" or "us-reg1-xyz/dc1"; NULL for its own entries.
ALTER TABLE "change" ADD COLUMN "namespace_below" TEXT;

-- How far this registry has indexed each child's change feed: the last entry indexed (its seq, and
-- a fingerprint that tells a feed that started over from the one read), written in the
-- transaction that stored the rows derived from it; and the lag of the child's own index, as it
-- reported it at that read.
CREATE TABLE "index_follow" (
    "child_id" UUID NOT NULL,
    "feed_registry_id" UUID,
    "seq" BIGINT NOT NULL DEFAULT 0,
    "fingerprint" TEXT,
    "latest_seq" BIGINT NOT NULL DEFAULT 0,
    "read_at" TIMESTAMPTZ(3),
    "caught_up_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "resets" INTEGER NOT NULL DEFAULT 0,
    "descendant_lag" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "index_follow_pkey" PRIMARY KEY ("child_id")
);

-- The aggregated discovery index: one row per stream, cluster and binding of a child's subtree,
-- as its registry rendered it. `namespace` is its namespace's path below this registry's (the
-- child's name first, e.g. "us-reg1-xyz/dc1"); a binding's `name` is its stream's. Names sort by
-- code point, whatever the database's collation, as the API's lists do.
CREATE TABLE "index_entry" (
    "child_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "namespace" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "cluster" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "doc" JSONB NOT NULL,

    CONSTRAINT "index_entry_pkey" PRIMARY KEY ("kind", "namespace", "name", "cluster")
);

-- Binding lists: by stream, then creation, the default first (as a registry lists its own).
CREATE INDEX "index_entry_binding_order" ON "index_entry" ("kind", "namespace", "name", "created_at", (NOT "is_default"), "cluster");
CREATE INDEX "index_entry_child" ON "index_entry" ("child_id");

ALTER TABLE "index_follow" ADD CONSTRAINT "index_follow_child_id_fkey" FOREIGN KEY ("child_id") REFERENCES "child_registry"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "index_entry" ADD CONSTRAINT "index_entry_child_id_fkey" FOREIGN KEY ("child_id") REFERENCES "child_registry"("id") ON DELETE CASCADE ON UPDATE CASCADE;
