import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { generateSecretKey, Keyring } from "@stream-registry/core";
import { migrate, openDatabase, type Database } from "@stream-registry/store";
import { createTestDatabase, type TestDatabase } from "@stream-registry/testkit";
import { createThroughJournal, mayHaveMadeResource } from "../src/reconciler/create-journal.ts";
import { bindingHandler } from "../src/reconciler/handlers/binding-handler.ts";
import { ProviderRegistry } from "../src/providers/provider-registry.ts";
import { registryOnlyProvider } from "../src/providers/registry-only.ts";
import { prismaOf } from "@stream-registry/store/testing";

const migrationsDir = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));

// Bindings from before the create journal: a realized one, and one whose create may have been sent.
// (Journals of bindings made since are exercised against real Kafka in kafka-lost-create.test.ts.)
describe("the create journal's migration", () => {
  const open: { database?: TestDatabase; db?: Database; dir?: string } = {};
  afterAll(async () => {
    await open.db?.close();
    await open.database?.drop();
    if (open.dir) await rm(open.dir, { recursive: true, force: true });
  });

  it("leaves bindings from before it unknown, so their deletion still reaches the platform", async () => {
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
    await prismaOf(db.prisma).$executeRaw`INSERT INTO cluster (id, name, provider, updated_at)
      VALUES ('00000000-0000-4000-8000-000000000001', 'c', 'kafka', now())`;
    await prismaOf(db.prisma).$executeRaw`INSERT INTO stream (id, name, updated_at)
      VALUES ('00000000-0000-4000-8000-000000000002', 's', now()), ('00000000-0000-4000-8000-000000000003', 't', now())`;
    await prismaOf(db.prisma)
      .$executeRaw`INSERT INTO binding (id, stream_id, cluster_id, observed_generation, updated_at) VALUES
      ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 1, now()),
      ('00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', NULL, now())`;

    await migrate(db);
    const [realized, unrealized] = await prismaOf(db.prisma).binding.findMany({ orderBy: { id: "asc" } });
    expect(realized!.pendingCreates).toBeNull();
    expect(unrealized!.pendingCreates).toBeNull();
    // The cluster's "kafka" provider is played by one that realizes nothing, through the binding handler.
    const providers = new ProviderRegistry(new Map([["kafka", registryOnlyProvider]]));
    const keyring = new Keyring([generateSecretKey("test")]);
    const handler = bindingHandler({ db, providers, namespace: "/", keyring });
    const context = { signal: new AbortController().signal };
    const read = (await handler.load(unrealized!.id))!;
    expect(handler.journaled(read)).toBe(true);
    expect(await mayHaveMadeResource(db.prisma, handler, read, context)).toBe(true);

    // A create sent now does not make the journal look complete: what came before is unknown.
    await createThroughJournal(db.prisma, handler, read, context);
    const after = (await handler.load(unrealized!.id))!;
    expect(after.pendingCreates).toBeNull();
    expect(await mayHaveMadeResource(db.prisma, handler, after, context)).toBe(true);
  });
});
