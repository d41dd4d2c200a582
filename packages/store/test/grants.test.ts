import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Grant, Role, Visibility } from "@stream-registry/core";
import { createTestDatabase, databaseKinds, type TestDatabase } from "@stream-registry/testkit";
import {
  countBindings,
  countClusters,
  countStreams,
  listBindings,
  listClusters,
  listStreams,
} from "../src/catalog.ts";
import { countChanges, listChanges } from "../src/change-log-reads.ts";
import { openDatabase, type Database } from "../src/database.ts";
import {
  countGrants,
  createGrant,
  deleteGrant,
  findGrantsNamed,
  listGrants,
  type GrantPosition,
  type GrantVisibility,
} from "../src/grants.ts";
import { applyIndexPage, ensureIndexFollows } from "../src/discovery-index.ts";
import { countIndexed, listIndexed } from "../src/discovery-index-reads.ts";
import { migrate } from "../src/migrate.ts";
import { recordChange } from "../src/change-log.ts";
import { createApiToken, revokeApiToken } from "../src/api-tokens.ts";
import { writeTransaction } from "../src/transaction.ts";
import { inTransaction, prismaOf } from "../src/testing.ts";

const grant = (principal: string, role: Role, scope: string, streamPrefix: string | null = null): Grant => ({
  principal,
  role,
  scope,
  streamPrefix,
});
const log = { actor: "token:admin", scopePath: "/" };
const ALL: GrantVisibility = { administers: "all", names: [] };

describe.each(databaseKinds)("grants and what lists show on %s", (kind) => {
  const handles: { testDatabase?: TestDatabase; db?: Database } = {};
  beforeAll(async () => {
    handles.testDatabase = await createTestDatabase(kind, "grants");
    handles.db = await openDatabase({ url: handles.testDatabase.url });
    await migrate(handles.db);
  });
  afterAll(async () => {
    await handles.db?.close();
    await handles.testDatabase?.drop();
  });
  const prisma = () => handles.db!.prisma;
  const key = (g: Grant) => `${g.principal} ${g.role} ${g.scope} ${g.streamPrefix ?? "*"}`;

  describe("grants", () => {
    it("grants once: the same grant again changes nothing and logs nothing", async () => {
      const before = (await listChanges(prisma(), undefined, 1000)).length;
      const first = await createGrant(prisma(), grant("user:alice", "writer", "aws", "w_"), log);
      const again = await createGrant(prisma(), grant("user:alice", "writer", "aws", "w_"), log);
      expect(first.created).toBe(true);
      expect(again).toEqual({ grant: first.grant, created: false });
      expect(first.grant).toMatchObject({ streamPrefix: "w_", createdBy: "token:admin" });
      const after = await listChanges(prisma(), undefined, 1000);
      expect(after).toHaveLength(before + 1);
      const [entry] = after.slice(-1);
      expect(entry).toMatchObject({
        entityType: "grant",
        action: "created",
        entityKey: "writer on / streams w_* to user:alice",
        data: { principal: "user:alice", role: "writer", namespace: "/", streamPrefix: "w_" },
      });
    });

    it("finds the grants naming a principal or its groups", async () => {
      await createGrant(prisma(), grant("group:devs", "reader", ""), log);
      await createGrant(prisma(), grant("user:bob", "admin", ""), log);
      const found = await findGrantsNamed(prisma(), ["user:alice", "group:devs"]);
      expect(found.map(key).sort()).toEqual(["group:devs reader  *", "user:alice writer aws w_"]);
      expect(await findGrantsNamed(prisma(), [])).toEqual([]);
    });

    it("revokes a grant, and says when there was none", async () => {
      await createGrant(prisma(), grant("user:carol", "reader", "gcp"), log);
      expect(await deleteGrant(prisma(), grant("user:carol", "reader", "gcp"), log)).toMatchObject({
        principal: "user:carol",
      });
      expect(await deleteGrant(prisma(), grant("user:carol", "reader", "gcp"), log)).toBeNull();
      // Another role, or another prefix, is another grant.
      expect(await deleteGrant(prisma(), grant("user:alice", "writer", "aws"), log)).toBeNull();
      expect(await findGrantsNamed(prisma(), ["user:carol"])).toEqual([]);
    });

    it("keeps the last admin grant on the registry's own namespace", async () => {
      expect(await deleteGrant(prisma(), grant("user:bob", "admin", ""), log)).toBe("last admin");
      await createGrant(prisma(), grant("group:ops", "admin", ""), log);
      // Two at once: one goes, the other is then the last.
      const outcomes = await Promise.all([
        deleteGrant(prisma(), grant("user:bob", "admin", ""), log),
        deleteGrant(prisma(), grant("group:ops", "admin", ""), log),
      ]);
      expect(outcomes.filter((o) => o === "last admin")).toHaveLength(1);
      const left = await listGrants(prisma(), {}, ALL, { limit: 100 });
      expect(left.filter((g) => g.role === "admin" && g.scope === "")).toHaveLength(1);
    });

    it("counts an API token's admin grant only while the token can be used", async () => {
      const [last] = (await listGrants(prisma(), {}, ALL, { limit: 100 })).filter(
        (g) => g.role === "admin" && g.scope === "",
      );
      const token = (name: string, expiresAt: Date | null) =>
        writeTransaction(prisma(), (tx) =>
          createApiToken(tx, { name, hash: `hash-${name}`, groups: [], createdBy: "token:admin", expiresAt }),
        );
      await token("revoked-admin", null);
      await writeTransaction(prisma(), (tx) => revokeApiToken(tx, "revoked-admin", "token:admin"));
      await token("expired-admin", new Date(Date.now() - 1_000));
      for (const name of ["revoked-admin", "expired-admin", "never-made"])
        await createGrant(prisma(), grant(`token:${name}`, "admin", ""), log);
      // None of them lets anyone in: the last usable admin is still the last.
      expect(await deleteGrant(prisma(), grant(last!.principal, "admin", ""), log)).toBe("last admin");
      await token("live-admin", null);
      await createGrant(prisma(), grant("token:live-admin", "admin", ""), log);
      expect(await deleteGrant(prisma(), grant(last!.principal, "admin", ""), log)).not.toBe("last admin");
      expect(await deleteGrant(prisma(), grant("token:live-admin", "admin", ""), log)).toBe("last admin");
      // A grant that lets no one in may always go.
      expect(await deleteGrant(prisma(), grant("token:revoked-admin", "admin", ""), log)).not.toBe(
        "last admin",
      );
    });
  });

  describe("listing grants", () => {
    beforeAll(async () => {
      for (const g of [
        grant("user:dave", "reader", "aws"),
        grant("user:dave", "writer", "aws/us-reg1"),
        grant("group:x", "reader", "aws2"),
        grant("group:x", "admin", "aws2/eu"),
        grant("token:ci", "writer", "", "ci_"),
      ])
        await createGrant(prisma(), g, log);
    });

    it("shows an admin the grants of the scopes it administers, and anyone the grants naming it", async () => {
      const admin = { administers: [{ scope: "aws", prefix: null }], names: [] };
      expect((await listGrants(prisma(), {}, admin, { limit: 100 })).map(key)).toEqual([
        "user:alice writer aws w_",
        "user:dave reader aws *",
        "user:dave writer aws/us-reg1 *",
      ]);
      expect(await countGrants(prisma(), {}, admin)).toBe(3);
      const self = { administers: [] as Visibility, names: ["token:ci"] };
      expect((await listGrants(prisma(), {}, self, { limit: 100 })).map(key)).toEqual([
        "token:ci writer  ci_",
      ]);
      expect(await countGrants(prisma(), {}, { administers: [], names: [] })).toBe(0);
    });

    it("filters by a namespace's grants, whole segments, above and below it", async () => {
      const within = async (namespace: string) =>
        (await listGrants(prisma(), { namespace }, ALL, { limit: 100 })).map(key);
      const aws = await within("aws");
      expect(aws).toContain("user:dave writer aws/us-reg1 *");
      expect(aws).toContain("token:ci writer  ci_");
      expect(aws.some((g) => g.includes("aws2"))).toBe(false);
      expect(await within("aws2/eu/dc1")).toEqual(
        expect.arrayContaining(["group:x reader aws2 *", "group:x admin aws2/eu *"]),
      );
      expect(await within("aws2/eu/dc1")).not.toContain("user:dave reader aws *");
      expect((await listGrants(prisma(), { principal: "group:x" }, ALL, { limit: 100 })).map(key)).toEqual([
        "group:x reader aws2 *",
        "group:x admin aws2/eu *",
      ]);
    });

    it("pages in a stable order", async () => {
      const all = (await listGrants(prisma(), {}, ALL, { limit: 100 })).map(key);
      const paged: string[] = [];
      let after: GrantPosition | undefined;
      for (;;) {
        const page = await listGrants(prisma(), {}, ALL, { after, limit: 2 });
        if (page.length === 0) break;
        paged.push(...page.map(key));
        const last = page.at(-1)!;
        after = [last.scope, last.principal, last.role, last.streamPrefix ?? ""];
      }
      expect(paged).toEqual(all);
      expect(all.length).toBe(await countGrants(prisma(), {}, ALL));
    });
  });

  describe("visibility of this registry's own lists", () => {
    beforeAll(async () => {
      const cluster = await prismaOf(prisma()).cluster.create({
        data: { name: "c1", provider: "registry-only" },
      });
      for (const name of ["w_a", "w_b", "x_a", "w%_"]) {
        const stream = await prismaOf(prisma()).stream.create({ data: { name } });
        await prismaOf(prisma()).binding.create({ data: { streamId: stream.id, clusterId: cluster.id } });
      }
    });
    const streams = async (visible: Visibility) =>
      (await listStreams(prisma(), {}, { limit: 100 }, visible)).map((s) => s.name);

    it.each<[string, Visibility, string[]]>([
      ["all", "all", ["w%_", "w_a", "w_b", "x_a"]],
      ["nothing", [], []],
      ["a prefix", [{ scope: "", prefix: "w_" }], ["w_a", "w_b"]],
      ["a prefix taken literally, not as a pattern", [{ scope: "", prefix: "w%" }], ["w%_"]],
      [
        "two prefixes",
        [
          { scope: "", prefix: "w_a" },
          { scope: "", prefix: "x" },
        ],
        ["w_a", "x_a"],
      ],
      ["a scope below only", [{ scope: "aws", prefix: null }], []],
    ])("streams, bindings and their counts: %s", async (_, visible, names) => {
      expect(await streams(visible)).toEqual(names);
      expect(await countStreams(prisma(), {}, visible)).toBe(names.length);
      const bindings = await listBindings(prisma(), {}, { limit: 100 }, visible);
      expect(bindings.map((b) => b.stream.name)).toEqual(names);
      expect(await countBindings(prisma(), {}, visible)).toBe(names.length);
    });

    it.each<[Visibility, number]>([
      ["all", 1],
      [[], 0],
      [[{ scope: "aws", prefix: null }], 0],
    ])("clusters with %j: %i", async (visible, count) => {
      expect(await listClusters(prisma(), {}, { limit: 100 }, visible)).toHaveLength(count);
      expect(await countClusters(prisma(), {}, visible)).toBe(count);
    });
  });

  describe("visibility of the discovery index", () => {
    beforeAll(async () => {
      const child = await prismaOf(prisma()).childRegistry.create({
        data: {
          registryId: "7c2b6a62-0c1e-4c3b-9f5e-0a4c1c2d3e4f",
          name: "aws",
          url: "http://aws/graphql",
          sdl: "",
          version: "1",
        },
      });
      const rows = [
        ["stream", "aws", "w_1", ""],
        ["stream", "aws", "x_1", ""],
        ["stream", "aws/us-reg1", "w_2", ""],
        ["stream", "aws2", "w_3", ""],
        ["cluster", "aws", "c1", ""],
        ["cluster", "aws2", "c2", ""],
        ["binding", "aws", "w_1", "c1"],
        ["binding", "aws", "x_1", "c1"],
      ];
      // Written as the index writes a page, so that its counts are kept with the rows.
      await ensureIndexFollows(prisma());
      const written = await applyIndexPage(prisma(), {
        childId: child.id,
        from: 0n,
        to: {
          seq: 1n,
          fingerprint: "f1",
          feedRegistryId: child.registryId,
          latestSeq: 1n,
          caughtUp: true,
          descendantLag: [],
          descendantHealth: [],
        },
        dropped: [],
        put: rows.map(([kind, namespace, name, cluster]) => ({
          kind: kind! as "stream" | "cluster" | "binding",
          namespace: namespace!,
          name: name!,
          cluster: cluster!,
          createdAt: new Date(),
          isDefault: false,
          doc: {},
        })),
        removed: [],
        republish: [],
      });
      expect(written).toBe(true);
    });
    const indexed = async (kind: "stream" | "cluster" | "binding", visible: Visibility) => {
      const rows = await listIndexed(prisma(), kind, {}, { limit: 100 }, visible);
      expect(await countIndexed(prisma(), kind, {}, visible)).toBe(rows.length);
      return rows.map((r) => `${r.namespace} ${r.name}`);
    };

    it.each<[string, "stream" | "cluster" | "binding", Visibility, string[]]>([
      ["all streams", "stream", "all", ["aws w_1", "aws x_1", "aws/us-reg1 w_2", "aws2 w_3"]],
      [
        "/aws covers /aws/us-reg1, not /aws2",
        "stream",
        [{ scope: "aws", prefix: null }],
        ["aws w_1", "aws x_1", "aws/us-reg1 w_2"],
      ],
      ["a scope below", "stream", [{ scope: "aws/us-reg1", prefix: null }], ["aws/us-reg1 w_2"]],
      ["a prefix in a scope", "stream", [{ scope: "aws", prefix: "w_" }], ["aws w_1", "aws/us-reg1 w_2"]],
      [
        "a prefix everywhere",
        "stream",
        [{ scope: "", prefix: "w_" }],
        ["aws w_1", "aws/us-reg1 w_2", "aws2 w_3"],
      ],
      ["bindings by their stream's prefix", "binding", [{ scope: "aws", prefix: "x" }], ["aws x_1"]],
      ["clusters of a scope", "cluster", [{ scope: "aws2", prefix: null }], ["aws2 c2"]],
      ["no cluster for a prefix", "cluster", [{ scope: "", prefix: "c" }], []],
      ["nothing", "stream", [], []],
    ])("%s", async (_, kind, visible, expected) => {
      expect(await indexed(kind, visible)).toEqual(expected);
    });
  });

  describe("visibility of the change log", () => {
    it("shows entries of the namespaces read, grants' only to who administers them", async () => {
      const start = (await listChanges(prisma(), undefined, 1000)).length;
      await inTransaction(prisma(), async (tx) => {
        for (const [entityType, below] of [
          ["stream", undefined],
          ["stream", "aws"],
          ["stream", "aws2"],
          ["cluster", "aws/us-reg1"],
        ] as const)
          await recordChange(tx, {
            entityType,
            entityKey: "k",
            action: "created",
            generation: 1,
            actor: "a",
            ...(below ? { below } : {}),
          });
      });
      const seen = async (entries: Visibility, grants: Visibility = []) =>
        (await listChanges(prisma(), BigInt(start), 100, { entries, grants })).map(
          (c) => `${c.entityType}@${c.namespaceBelow ?? ""}`,
        );
      expect(await seen([{ scope: "aws", prefix: null }])).toEqual(["stream@aws", "cluster@aws/us-reg1"]);
      expect(await seen([{ scope: "aws/us-reg1", prefix: null }])).toEqual(["cluster@aws/us-reg1"]);
      expect(await seen([])).toEqual([]);
      expect(await countChanges(prisma(), { entries: [{ scope: "aws", prefix: null }], grants: [] })).toBe(2);
      // Grant entries are this registry's own: an admin of its namespace reads them.
      const all = await listChanges(prisma(), undefined, 1000, { entries: [], grants: "all" });
      expect(all.length).toBeGreaterThan(0);
      expect(all.every((c) => c.entityType === "grant")).toBe(true);
      expect(
        await listChanges(prisma(), undefined, 1000, {
          entries: [],
          grants: [{ scope: "aws", prefix: null }],
        }),
      ).toEqual([]);
      // Typed and numbered as the unfiltered read gives them.
      const [filtered] = await listChanges(prisma(), BigInt(start), 1, { entries: "all", grants: [] });
      const [unfiltered] = await listChanges(prisma(), BigInt(start), 1);
      expect(filtered).toStrictEqual(unfiltered);
    });
  });
});
