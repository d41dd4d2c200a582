import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "@stream-registry/testkit";
import { listChanges } from "../src/change-log-reads.ts";
import { openDatabase, type Database } from "../src/database.ts";
import {
  applyIndexPage,
  ensureIndexFollows,
  listIndexFollows,
  resetChildIndex,
  type IndexedEntry,
  type IndexPage,
} from "../src/discovery-index.ts";
import { countIndexed, listIndexed, type IndexPosition } from "../src/discovery-index-reads.ts";
import { migrate } from "../src/migrate.ts";
import { inTransaction, prismaOf } from "../src/testing.ts";

describe.each(databaseKinds)("the discovery index on %s", (kind) => {
  const handles: { testDatabase?: TestDatabase; db?: Database } = {};
  let childId = "";
  beforeAll(async () => {
    handles.testDatabase = await createTestDatabase(kind, "index");
    handles.db = await openDatabase({ url: handles.testDatabase.url });
    await migrate(handles.db);
    const child = await prismaOf(handles.db.prisma).childRegistry.create({
      data: {
        registryId: "7c2b6a62-0c1e-4c3b-9f5e-0a4c1c2d3e4f",
        name: "aws",
        url: "http://aws/graphql",
        sdl: "",
        version: "1",
      },
    });
    childId = child.id;
    await ensureIndexFollows(handles.db.prisma);
  });
  afterAll(async () => {
    await handles.db?.close();
    await handles.testDatabase?.drop();
  });
  const prisma = () => handles.db!.prisma;

  const stream = (namespace: string, name: string, team = "a"): IndexedEntry => ({
    kind: "stream",
    namespace,
    name,
    cluster: "",
    createdAt: new Date("2026-12-01T00:00:00Z"),
    isDefault: false,
    doc: { name, config: { "acme.kafka": { team, partitions: 3 } } },
  });
  const page = (from: bigint, to: bigint, parts: Partial<IndexPage>): IndexPage => ({
    childId,
    from,
    to: {
      seq: to,
      fingerprint: `f${to}`,
      feedRegistryId: "7c2b6a62-0c1e-4c3b-9f5e-0a4c1c2d3e4f",
      latestSeq: to,
      caughtUp: true,
      descendantLag: [],
      descendantHealth: [],
    },
    dropped: [],
    put: [],
    removed: [],
    republish: [],
    ...parts,
  });
  const names = async (filter = {}) =>
    (await listIndexed(prisma(), "stream", filter, { limit: 100 })).map((e) => `${e.namespace} ${e.name}`);

  it("writes a page's rows, its entries and the new position at once, exactly once", async () => {
    const first = page(0n, 3n, {
      put: [stream("aws", "orders"), stream("aws/us-reg1-xyz", "widgets"), stream("aws/us-reg1-xyz-a", "x")],
      republish: [
        {
          below: "aws/us-reg1-xyz",
          entityType: "stream",
          entityKey: "widgets",
          action: "created",
          generation: 1,
          actor: "alice",
          at: new Date("2026-12-01T00:00:00Z"),
          data: { name: "widgets" },
        },
      ],
    });
    expect(await applyIndexPage(prisma(), first)).toBe(true);
    const logged = await listChanges(prisma(), undefined, 100);
    // Applied again from the position it was read at (another instance, a retry): nothing.
    expect(await applyIndexPage(prisma(), first)).toBe(false);
    expect(await listChanges(prisma(), undefined, 100)).toHaveLength(logged.length);
    expect(logged.at(-1)).toMatchObject({
      namespaceBelow: "aws/us-reg1-xyz",
      actor: "alice",
      entityKey: "widgets",
    });
    expect(await names()).toEqual(["aws orders", "aws/us-reg1-xyz widgets", "aws/us-reg1-xyz-a x"]);
    const [follow] = await listIndexFollows(prisma());
    expect(follow).toMatchObject({ name: "aws", seq: 3n, fingerprint: "f3", latestSeq: 3n });
    expect(follow!.caughtUpAt).not.toBeNull();
  });

  it("drops a namespace's rows and those below it, not a sibling's that shares its prefix", async () => {
    expect(
      await applyIndexPage(
        prisma(),
        page(3n, 4n, { dropped: ["aws/us-reg1-xyz"], put: [stream("aws", "later")] }),
      ),
    ).toBe(true);
    expect(await names()).toEqual(["aws later", "aws orders", "aws/us-reg1-xyz-a x"]);
  });

  it("filters by namespace subtree, name and config, and pages by the last row's key", async () => {
    await applyIndexPage(
      prisma(),
      page(4n, 5n, {
        put: [stream("aws/dc1", "a1", "b"), stream("aws/dc1", "a2"), stream("aws/dc1/rack", "a3", "b")],
        removed: [{ kind: "stream", namespace: "aws", name: "later", cluster: "" }],
      }),
    );
    expect(await names({ namespace: "aws/dc1" })).toEqual(["aws/dc1 a1", "aws/dc1 a2", "aws/dc1/rack a3"]);
    expect(
      await names({ nameStartsWith: "a", config: [{ map: "acme.kafka", key: "team", value: "b" }] }),
    ).toEqual(["aws/dc1 a1", "aws/dc1/rack a3"]);
    expect(await names({ config: [{ map: "acme.kafka", key: "partitions", value: "3" }] })).toEqual([]);
    expect(await countIndexed(prisma(), "stream", { nameContains: "a" })).toBe(3);
    const seen: string[] = [];
    let after: IndexPosition | undefined;
    for (;;) {
      const rows = await listIndexed(prisma(), "stream", {}, { after, limit: 2 });
      if (rows.length === 0) break;
      seen.push(...rows.map((r) => `${r.namespace} ${r.name}`));
      const last = rows.at(-1)!;
      after = [last.namespace, last.name, last.createdAt.toISOString(), !last.isDefault, last.cluster];
    }
    expect(seen).toEqual(await names());
    expect(seen).toHaveLength(5);
  });

  it("keeps the counts unfiltered totals sum equal to the rows, through puts, removals and drops", async () => {
    // Counted row by row: a filter the namespaces' counts cannot answer.
    const rows = async (filter: { namespace?: string }) =>
      (await listIndexed(prisma(), "stream", filter, { limit: 100 })).length;
    const agree = async () => {
      for (const filter of [
        {},
        { namespace: "aws" },
        { namespace: "aws/dc1" },
        { namespace: "aws/dc1/rack" },
      ])
        expect(await countIndexed(prisma(), "stream", filter), JSON.stringify(filter)).toBe(
          await rows(filter),
        );
    };
    await agree();
    expect(await countIndexed(prisma(), "stream", {})).toBe(5);
    await applyIndexPage(
      prisma(),
      page(5n, 6n, {
        put: [stream("aws/dc1", "a2", "c"), stream("aws/dc1", "a4")],
        removed: [{ kind: "stream", namespace: "aws/dc1/rack", name: "a3", cluster: "" }],
      }),
    );
    await agree();
    expect(await countIndexed(prisma(), "stream", { namespace: "aws/dc1" })).toBe(3);
    await applyIndexPage(prisma(), page(6n, 7n, { dropped: ["aws/dc1"] }));
    await agree();
    expect(await countIndexed(prisma(), "stream", {})).toBe(2);
    // A filter the counts cannot answer is counted row by row.
    expect(await countIndexed(prisma(), "stream", { nameStartsWith: "zz" })).toBe(0);
    // A prefix-narrowed view too: the counts do not know names.
    expect(await countIndexed(prisma(), "stream", {}, [{ scope: "aws", prefix: "or" }])).toBe(1);
  });

  it("forgets a child whose feed started over, and says so in its own feed", async () => {
    await inTransaction(prisma(), (tx) => resetChildIndex(tx, childId, "aws", "registry:index"));
    expect(await names()).toEqual([]);
    expect(await countIndexed(prisma(), "stream", {})).toBe(0);
    const [follow] = await listIndexFollows(prisma());
    expect(follow).toMatchObject({ seq: 0n, fingerprint: null, resets: 1, caughtUpAt: null });
    const [dropped] = (await listChanges(prisma(), undefined, 100)).slice(-1);
    expect(dropped).toMatchObject({ entityType: "index", action: "dropped", namespaceBelow: "aws" });
  });
});
