import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { migrate, openDatabase, type Database } from "@stream-registry/store";
import { createTestDatabase, type TestDatabase } from "@stream-registry/testkit";
import { mayHaveBeenCreated } from "../src/reconciler/create-journal.ts";

const migrationsDir = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));

// Bindings from before the create journal: a realized one, and one whose create may have been sent.
describe("the create journal's migration", () => {
  const open: { database?: TestDatabase; db?: Database; dir?: string } = {};
  afterAll(async () => {
    await open.db?.close();
    await open.database?.drop();
    if (open.dir) await rm(open.dir, { recursive: true, force: true });
  });

  it("marks bindings never realized before it as unknown, so their deletion still reaches the platform", async () => {
    open.database = await createTestDatabase("pglite", "journal");
    open.db = await openDatabase({ url: open.database.url });
    const db = open.db;
    const names = (await readdir(migrationsDir)).filter((name) => /^\d{14}_/.test(name)).sort();
    const journalAt = names.findIndex((name) => name.endsWith("_binding_pending_creates"));
    expect(journalAt).toBeGreaterThan(0);
    open.dir = await mkdtemp(path.join(tmpdir(), "sr-migrations-"));
    for (const name of names.slice(0, journalAt)) {
      await cp(path.join(migrationsDir, name), path.join(open.dir, name), { recursive: true });
    }
    await cp(path.join(migrationsDir, "migration_lock.toml"), path.join(open.dir, "migration_lock.toml"));
    await migrate(db, { migrationsDir: open.dir });
    await db.prisma.$executeRaw`INSERT INTO cluster (id, name, provider, updated_at)
      VALUES ('00000000-0000-4000-8000-000000000001', 'c', 'kafka', now())`;
    await db.prisma.$executeRaw`INSERT INTO stream (id, name, updated_at)
      VALUES ('00000000-0000-4000-8000-000000000002', 's', now()), ('00000000-0000-4000-8000-000000000003', 't', now())`;
    await db.prisma
      .$executeRaw`INSERT INTO binding (id, stream_id, cluster_id, observed_generation, updated_at) VALUES
      ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 1, now()),
      ('00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', NULL, now())`;

    await migrate(db);
    const [realized, unrealized] = await db.prisma.binding.findMany({ orderBy: { id: "asc" } });
    expect(realized!.pendingCreates).toEqual([]);
    expect(unrealized!.pendingCreates).toBeNull();
    expect(mayHaveBeenCreated(unrealized!)).toBe(true);
    // A binding made now starts with an empty journal: nothing was sent for it yet.
    const other = await db.prisma.stream.create({ data: { name: "u" } });
    const created = await db.prisma.binding.create({
      data: { streamId: other.id, clusterId: "00000000-0000-4000-8000-000000000001" },
    });
    expect(created.pendingCreates).toEqual([]);
    expect(mayHaveBeenCreated(created)).toBe(false);
  });
});
