import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Access,
  ErrorCode,
  generateSecretKey,
  Keyring,
  RegistryError,
  type Grant,
  type Principal,
} from "@stream-registry/core";
import { migrate, openDatabase, type Database } from "@stream-registry/store";
import { RegistryIdentity } from "../src/identity.ts";
import { ProviderRegistry } from "../src/providers/provider-registry.ts";
import { registryOnlyProvider } from "../src/providers/registry-only.ts";
import type { Caller } from "../src/services/deps.ts";
import { createServices, type Services } from "../src/services/services.ts";

// The services' checks on their own (no HTTP): each write refused for want of a role is FORBIDDEN,
// naming the role and namespace, and changes nothing; lists show what the caller reads.

const grant = (
  principal: string,
  role: Grant["role"],
  scope = "",
  streamPrefix: string | null = null,
): Grant => ({
  principal,
  role,
  scope,
  streamPrefix,
});
const user = (name: string): Principal => ({
  subject: `user:${name}`,
  issuer: "https://login.example",
  local: true,
  groups: [],
  via: "oidc",
});
const GRANTS = [
  grant("user:admin", "admin"),
  grant("user:reader", "reader"),
  grant("user:widgets", "writer", "", "widgets_"),
  grant("user:below", "admin", "aws"),
];

describe("authorization in the services", () => {
  let db: Database;
  let services: Services;
  const caller = (name: string): Caller => ({
    actor: `user:${name}`,
    access: Access.of(user(name), GRANTS, "/"),
  });

  beforeAll(async () => {
    db = await openDatabase({});
    await migrate(db);
    const identity = await RegistryIdentity.load(db.prisma, false, () => {});
    const deps = {
      db,
      providers: new ProviderRegistry(new Map([["registry-only", registryOnlyProvider]])),
      namespace: "/",
      keyring: new Keyring([generateSecretKey("test")]),
      wakeReconciler: () => {},
    };
    const self = {
      sdl: "",
      version: "test",
      url: () => "http://127.0.0.1:9/graphql",
      keys: () => [],
      prove: () => Promise.reject(new Error("this registry has no parent to prove itself to")),
    };
    services = createServices(deps, { identity, self });
    const admin = caller("admin");
    await services.clusters.declare({ name: "c1", provider: "registry-only" }, admin);
    for (const name of ["widgets_a", "gadgets_a"]) {
      await services.streams.create({ name }, admin);
      await services.bindings.create({ stream: name, cluster: "c1" }, admin);
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  async function refused(work: () => Promise<unknown>): Promise<RegistryError> {
    const error = await work().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RegistryError);
    expect((error as RegistryError).code).toBe(ErrorCode.FORBIDDEN);
    return error as RegistryError;
  }

  async function counts() {
    const all = Access.unrestricted("/");
    const args = { first: 500 };
    return Promise.all([
      services.catalog.streams(null, args, all).then((p) => p.totalCount()),
      services.catalog.clusters(null, args, all).then((p) => p.totalCount()),
      services.catalog.bindings(null, args, all).then((p) => p.totalCount()),
      services.changeFeed.changes(args, all).then((p) => p.totalCount()),
    ]);
  }

  it.each<[string, string, (s: Services, c: Caller) => Promise<unknown>, string]>([
    ["reader", "createStream", (s, c) => s.streams.create({ name: "x_1" }, c), "writer"],
    ["reader", "updateStream", (s, c) => s.streams.update({ name: "widgets_a", config: {} }, c), "writer"],
    ["reader", "deleteStream", (s, c) => s.streams.delete("widgets_a", true, c), "writer"],
    [
      "reader",
      "createBinding",
      (s, c) => s.bindings.create({ stream: "gadgets_a", cluster: "c1" }, c),
      "writer",
    ],
    ["widgets", "createStream gadgets_", (s, c) => s.streams.create({ name: "gadgets_b" }, c), "writer"],
    [
      "widgets",
      "deleteBinding gadgets_",
      (s, c) => s.bindings.delete({ stream: "gadgets_a", cluster: "c1" }, c),
      "writer",
    ],
    [
      "widgets",
      "declareCluster",
      (s, c) => s.clusters.declare({ name: "c2", provider: "registry-only" }, c),
      "admin",
    ],
    ["widgets", "deleteCluster", (s, c) => s.clusters.delete("c1", c), "admin"],
    ["below", "deleteCluster", (s, c) => s.clusters.delete("c1", c), "admin"],
    ["below", "declareDefaultNamespace", (s, c) => s.namespaces.declareDefault("x", c), "admin"],
    ["below", "dropParentRegistry", (s, c) => s.parent.drop(c), "admin"],
    [
      "widgets",
      "declareParentRegistry",
      (s, c) => s.parent.declare({ url: "http://127.0.0.1:9/graphql", token: "t" }, c),
      "admin",
    ],
    ["nobody", "createStream", (s, c) => s.streams.create({ name: "widgets_z" }, c), "writer"],
  ])("refuses %s %s: FORBIDDEN naming the role, nothing changed", async (who, _, work, role) => {
    const before = await counts();
    const error = await refused(() => work(services, caller(who)));
    expect(error.details).toEqual({ role, namespace: "/" });
    expect(await counts()).toEqual(before);
  });

  it("lets a prefixed writer write its streams and bindings", async () => {
    const widgets = caller("widgets");
    await services.streams.create({ name: "widgets_b" }, widgets);
    await services.bindings.create({ stream: "widgets_b", cluster: "c1" }, widgets);
    await services.streams.delete("widgets_b", true, widgets);
  });

  it.each<[string, number, number, number]>([
    ["admin", 2, 1, 2],
    ["reader", 2, 1, 2],
    ["widgets", 1, 0, 1],
    ["below", 0, 0, 0],
    ["nobody", 0, 0, 0],
  ])("shows %s its streams, clusters and bindings: %i, %i, %i", async (who, streams, clusters, bindings) => {
    const { access } = caller(who);
    const args = { first: 500 };
    const live = (await services.catalog.streams(null, args, access)).items.filter(
      (item) => !item.node.deleting,
    );
    expect(live).toHaveLength(streams);
    expect(await (await services.catalog.clusters(null, args, access)).totalCount()).toBe(clusters);
    const found = await services.catalog.bindings({ phase: null }, args, access);
    expect(found.items.filter((b) => b.node.stream.name !== "widgets_b")).toHaveLength(bindings);
  });

  it("grants only within the grantor's scope, names each bad field, and keeps the last admin", async () => {
    const below = caller("below");
    await services.grants.grant({ principal: "user:x", role: "writer", scope: "/aws/us-reg1" }, below);
    const escalation = await refused(() =>
      services.grants.grant({ principal: "user:below", role: "admin", scope: "/" }, below),
    );
    expect(escalation.field).toEqual(["input", "scope"]);
    await refused(() =>
      services.grants.grant({ principal: "user:x", role: "reader", scope: "/aws2" }, below),
    );
    const admin = caller("admin");
    await expect(
      services.grants.grant({ principal: "someone", role: "boss", scope: "aws", streamPrefix: "" }, admin),
    ).rejects.toMatchObject({
      errors: [
        expect.objectContaining({ field: ["input", "principal"] }),
        expect.objectContaining({ field: ["input", "role"] }),
        expect.objectContaining({ field: ["input", "scope"] }),
        expect.objectContaining({ field: ["input", "streamPrefix"] }),
      ],
    });
    await services.grants.grant({ principal: "user:admin", role: "admin" }, admin);
    await expect(
      services.grants.revoke({ principal: "user:admin", role: "admin" }, admin),
    ).rejects.toMatchObject({ errors: [expect.objectContaining({ code: "IN_USE" })] });
    await expect(
      services.grants.revoke({ principal: "user:nobody", role: "reader" }, admin),
    ).rejects.toMatchObject({ errors: [expect.objectContaining({ code: "NOT_FOUND" })] });
  });

  it("keeps a principal's grants for a few seconds, and reads them again after a GRANT or REVOKE", async () => {
    let queries = 0;
    const stop = db.onQuery((sql) => {
      // The read of a principal's grants (store's findGrantsNamed), not the writes.
      if (/FROM access_grant WHERE principal = ANY/.test(sql)) queries++;
    });
    try {
      const carol = user("carol");
      const can = async (now?: number) => (await services.grants.accessOf(carol, "/", now)).can("writer", "");
      expect(await can()).toBe(false);
      expect(await can()).toBe(false);
      expect(queries).toBe(1);
      await services.grants.grant({ principal: "user:carol", role: "writer" }, caller("admin"));
      queries = 0;
      expect(await can()).toBe(true);
      await services.grants.revoke({ principal: "user:carol", role: "writer" }, caller("admin"));
      expect(await can()).toBe(false);
      // Read once after each change, and again once the time is up.
      expect(queries).toBe(2);
      expect(await can(Date.now() + 6_000)).toBe(false);
      expect(queries).toBe(3);
    } finally {
      stop();
    }
  });
});
