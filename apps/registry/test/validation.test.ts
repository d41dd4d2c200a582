import { describe, expect, it } from "vitest";
import {
  databaseKinds,
  seed,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  DELETE_BINDING,
  DELETE_CLUSTER,
  DELETE_STREAM,
  UPDATE_BINDING,
  UPDATE_STREAM,
  type UserErrorView,
} from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

type Payload = { userErrors: UserErrorView[] } & Record<string, unknown>;

/** Runs a mutation expected to fail, and checks that it changed nothing at all. */
async function expectRefused(
  r: TestRegistry,
  document: string,
  input: Record<string, unknown>,
): Promise<UserErrorView[]> {
  const before = await changeCount(r);
  const data = await r.query<Record<string, Payload>>(document, { input });
  const payload = Object.values(data)[0]!;
  expect(payload.userErrors.length).toBeGreaterThan(0);
  for (const [key, value] of Object.entries(payload))
    if (key !== "userErrors") expect(value ?? null).toBeNull();
  expect(await changeCount(r)).toBe(before);
  return payload.userErrors;
}

/** Changes made by users; the reconciler's status changes run on their own clock. */
async function changeCount(r: TestRegistry): Promise<number> {
  const { changes } = await r.query<{ changes: { nodes: { actor: string }[] } }>(
    `{ changes(first: 500) { nodes { actor } } }`,
  );
  return changes.nodes.filter((c) => c.actor !== "reconciler").length;
}

describe.each(databaseKinds)("bad input on %s", (kind) => {
  const registry = useTestRegistry(kind);

  it.each([
    ["has a space", "a b", /invalid character " " at position 2/],
    ["is empty", "", /empty/],
    ["is '.'", ".", /"\."/],
    ["is '..'", "..", /"\.\."/],
    ["is 250 characters long", "x".repeat(250), /250/],
    ["has a slash", "a/b", /invalid character "\/"/],
  ])("refuses a stream name that %s", async (_, name, message) => {
    const errors = await expectRefused(registry(), CREATE_STREAM, { name });
    expect(errors).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "name"],
        message: expect.stringMatching(message),
      }),
    ]);
  });

  it("accepts a 249-character name", async () => {
    const name = "y".repeat(249);
    expect(await seed(registry()).stream({ name })).toMatchObject({ name });
  });

  it.each([
    ["not an object", ["a"], ["input", "config"]],
    ["a map that is not an object", { "acme.kafka": "x" }, ["input", "config", "acme.kafka"]],
    [
      "a nested object",
      { "acme.kafka": { owner: { name: "bob" } } },
      ["input", "config", "acme.kafka", "owner"],
    ],
    ["a null value", { "acme.kafka": { owner: null } }, ["input", "config", "acme.kafka", "owner"]],
    ["an array value", { "acme.kafka": { owners: ["a"] } }, ["input", "config", "acme.kafka", "owners"]],
    ["a bad map name", { "bad name": {} }, ["input", "config", "bad name"]],
  ])("refuses config maps with %s, naming the field", async (_, config, field) => {
    const errors = await expectRefused(registry(), CREATE_STREAM, { name: "cfg_s", config });
    expect(errors[0]).toMatchObject({ code: "INVALID_INPUT", field });
  });

  it("reports every problem at once", async () => {
    const errors = await expectRefused(registry(), CREATE_STREAM, {
      name: "a b",
      config: { "acme.kafka": { x: null } },
      producerConfig: { "p.map": { y: [1] } },
    });
    expect(errors.map((e) => e.field.join("."))).toEqual([
      "input.name",
      "input.config.acme.kafka.x",
      "input.producerConfig.p.map.y",
    ]);
  });

  it("refuses keys a provider does not know in the maps it owns", async () => {
    const errors = await expectRefused(registry(), CREATE_STREAM, {
      name: "owned_s",
      config: { "test.provider": { bogus: 1 } },
    });
    expect(errors).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "config", "test.provider", "bogus"],
        message: expect.stringContaining("unknown key"),
      }),
    ]);
  });

  it("refuses duplicates, unknown references and updates of missing objects", async () => {
    const r = registry();
    const cluster = await seed(r).cluster({ name: "ref-c1" });
    const stream = await seed(r).stream({ name: "ref_s" });
    expect(await expectRefused(r, CREATE_STREAM, { name: "ref_s" })).toEqual([
      expect.objectContaining({ code: "ALREADY_EXISTS", field: ["input", "name"] }),
    ]);
    expect(await expectRefused(r, CREATE_BINDING, { stream: "nope", cluster: "ref-c1" })).toEqual([
      expect.objectContaining({ code: "NOT_FOUND", field: ["input", "stream"] }),
    ]);
    expect(await expectRefused(r, CREATE_BINDING, { stream: "ref_s", cluster: "nope" })).toEqual([
      expect.objectContaining({ code: "NOT_FOUND", field: ["input", "cluster"] }),
    ]);
    expect((await expectRefused(r, UPDATE_STREAM, { name: "nope", config: {} }))[0]?.code).toBe("NOT_FOUND");
    expect((await expectRefused(r, DELETE_STREAM, { name: "nope" }))[0]?.code).toBe("NOT_FOUND");
    expect((await expectRefused(r, UPDATE_BINDING, { stream: "ref_s", cluster: "ref-c1" }))[0]?.code).toBe(
      "NOT_FOUND",
    );
    expect((await expectRefused(r, DELETE_BINDING, { stream: "ref_s", cluster: "ref-c1" }))[0]?.code).toBe(
      "NOT_FOUND",
    );
    expect((await expectRefused(r, DELETE_CLUSTER, { name: "nope" }))[0]?.code).toBe("NOT_FOUND");

    await seed(r).binding({ stream, cluster });
    expect(await expectRefused(r, CREATE_BINDING, { stream: "ref_s", cluster: "ref-c1" })).toEqual([
      expect.objectContaining({ code: "ALREADY_EXISTS", field: ["input", "cluster"] }),
    ]);
    expect(await expectRefused(r, DELETE_CLUSTER, { name: "ref-c1" })).toEqual([
      expect.objectContaining({ code: "IN_USE", message: expect.stringContaining("ref_s") }),
    ]);
  });

  it("passes the provider's refusal back with the offending field, changing nothing", async () => {
    const r = registry();
    await seed(r).cluster({
      name: "small",
      provider: "test",
      config: { "test.provider": { maxPartitions: 3 } },
    });
    await seed(r).stream({ name: "big_s", config: { "test.provider": { partitions: 12 } } });
    expect(await expectRefused(r, CREATE_BINDING, { stream: "big_s", cluster: "small" })).toEqual([
      expect.objectContaining({
        code: "PROVIDER_REJECTED",
        field: ["input", "config", "test.provider", "partitions"],
        message: expect.stringContaining("exceeds the cluster's maximum 3"),
      }),
    ]);
    // An unreachable cluster is an outage, not bad input: a GraphQL error, and nothing changes.
    const before = await changeCount(r);
    const down = await r.request(DECLARE_CLUSTER, {
      input: { name: "down", provider: "test", config: { "test.provider": { unreachable: true } } },
    });
    expect(down.errors?.[0]).toMatchObject({
      extensions: { code: "PROVIDER_UNAVAILABLE" },
      message: expect.stringContaining(`cannot reach cluster "down"`),
    });
    expect(await changeCount(r)).toBe(before);
  });

  it("lets exactly one of several concurrent creates of a stream win", async () => {
    const r = registry();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        r.query<{ createStream: Payload }>(CREATE_STREAM, { input: { name: "race_s" } }),
      ),
    );
    const winners = results.filter((x) => x.createStream.userErrors.length === 0);
    const losers = results.flatMap((x) => x.createStream.userErrors);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(7);
    expect(new Set(losers.map((e) => e.code))).toEqual(new Set(["ALREADY_EXISTS"]));
  });

  it("makes exactly one of several concurrent first bindings the default, listed first", async () => {
    const r = registry();
    const clusters = [];
    for (const name of ["race-c1", "race-c2", "race-c3", "race-c4"])
      clusters.push(await seed(r).cluster({ name }));
    // Several rounds: the default is whichever create locked the stream first, and it must be
    // listed first however the others' requests interleaved with it.
    for (const round of [1, 2, 3, 4, 5]) {
      const raced = await seed(r).stream({ name: `race_b${round}` });
      await Promise.all(clusters.map((cluster) => seed(r).binding({ stream: raced, cluster })));
      const { stream } = await r.query<{ stream: { bindings: { isDefault: boolean }[] } }>(
        `{ stream(name: "race_b${round}") { bindings { isDefault } } }`,
      );
      expect(stream.bindings.map((b) => b.isDefault)).toEqual([true, false, false, false]);
    }
  });

  it("answers a malformed or foreign cursor, an oversized page and a secret filter with INVALID_INPUT", async () => {
    const cursor = await registry().request(`{ streams(after: "garbage!") { totalCount } }`);
    expect(cursor.errors?.[0]?.extensions?.code).toBe("INVALID_INPUT");
    const { changes } = await registry().query<{ changes: { pageInfo: { endCursor: string } } }>(
      `{ changes(first: 1) { pageInfo { endCursor } } }`,
    );
    for (const list of ["streams", "clusters", "bindings"]) {
      const foreign = await registry().request(
        `query($after: String) { ${list}(after: $after) { totalCount } }`,
        {
          after: changes.pageInfo.endCursor,
        },
      );
      expect(foreign.errors?.[0]).toMatchObject({ extensions: { code: "INVALID_INPUT", field: ["after"] } });
    }
    const forged = Buffer.from(JSON.stringify({ s: "a", t: 1, id: "not-a-uuid" })).toString("base64url");
    const forgedPage = await registry().request(
      `query($after: String) { bindings(after: $after) { totalCount } }`,
      {
        after: forged,
      },
    );
    expect(forgedPage.errors?.[0]).toMatchObject({ extensions: { code: "INVALID_INPUT", field: ["after"] } });
    const nul = await registry().request(`query($f: StreamFilter) { streams(filter: $f) { totalCount } }`, {
      f: { nameContains: "a\u0000" },
    });
    expect(nul.errors?.[0]).toMatchObject({
      extensions: { code: "INVALID_INPUT", field: ["filter", "nameContains"] },
    });
    const secret = await registry().request(
      `{ clusters(filter: { config: [{ map: "apache.kafka", key: "sasl.jaas.config", value: "guess" }] }) { totalCount } }`,
    );
    expect(secret.errors?.[0]).toMatchObject({
      extensions: { code: "INVALID_INPUT" },
      message: expect.stringContaining("secret"),
    });
    const page = await registry().request(`{ streams(first: 100000) { totalCount } }`);
    expect(page.errors?.[0]).toMatchObject({
      extensions: { code: "INVALID_INPUT" },
      message: expect.stringContaining("500"),
    });
  });
});
