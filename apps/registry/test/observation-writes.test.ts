import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  migrate,
  openDatabase,
  recordClusterHealth,
  saveObservation,
  type Database,
} from "@stream-registry/store";
import { createTestDatabase, databaseKinds, type TestDatabase } from "@stream-registry/testkit";
import { prismaOf } from "@stream-registry/store/testing";

// The observations the registry writes outside write transactions: binding observations and cluster health.
describe.each(databaseKinds)("observation writes on %s", (kind) => {
  let testDatabase: TestDatabase | undefined;
  let db: Database | undefined;
  let bindingId = "";
  let clusterId = "";
  beforeAll(async () => {
    testDatabase = await createTestDatabase(kind, "observations");
    db = await openDatabase({ url: testDatabase.url });
    await migrate(db);
    const cluster = await prismaOf(db.prisma).cluster.create({ data: { name: "c", provider: "test" } });
    clusterId = cluster.id;
    const stream = await prismaOf(db.prisma).stream.create({ data: { name: "s" } });
    ({ id: bindingId } = await prismaOf(db.prisma).binding.create({
      data: { streamId: stream.id, clusterId: cluster.id },
    }));
  });
  afterAll(async () => {
    await db?.close();
    await testDatabase?.drop();
  });
  const stored = () => prismaOf(db!.prisma).bindingObservation.findUnique({ where: { bindingId } });

  it("stores the first observation and replaces it with a newer one", async () => {
    await saveObservation(
      db!.prisma,
      bindingId,
      { message: "first", details: { partitions: 3 } },
      new Date(1000),
    );
    expect(await stored()).toMatchObject({
      message: "first",
      details: { partitions: 3 },
      observedAt: new Date(1000),
    });
    await saveObservation(db!.prisma, bindingId, { details: { partitions: 6 } }, new Date(2000));
    expect(await stored()).toMatchObject({
      message: null,
      details: { partitions: 6 },
      observedAt: new Date(2000),
    });
  });

  it("keeps a newer observation over one made from an older look (a slow resync after a reconcile)", async () => {
    await saveObservation(
      db!.prisma,
      bindingId,
      { message: "reconciled", details: { partitions: 8 } },
      new Date(5000),
    );
    await saveObservation(
      db!.prisma,
      bindingId,
      { message: "stale", details: { partitions: 6 } },
      new Date(4000),
    );
    expect(await stored()).toMatchObject({
      message: "reconciled",
      details: { partitions: 8 },
      observedAt: new Date(5000),
    });
  });

  it("records a cluster's probe, and ignores one of a cluster deleted meanwhile", async () => {
    await recordClusterHealth(db!.prisma, clusterId, { ok: true, probe: { latencyMs: 3, brokerCount: 1 } });
    expect(await prismaOf(db!.prisma).clusterHealth.findUnique({ where: { clusterId } })).toMatchObject({
      status: "UP",
      brokerCount: 1,
    });
    const gone = "00000000-0000-4000-8000-0000000000ff";
    await recordClusterHealth(db!.prisma, gone, { ok: false, error: "refused" });
    expect(await prismaOf(db!.prisma).clusterHealth.findUnique({ where: { clusterId: gone } })).toBeNull();
  });
});
