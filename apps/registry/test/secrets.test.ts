import { describe, expect, it } from "vitest";
import { recordChange, writeTransaction } from "@stream-registry/store";
import {
  mutate,
  seed,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  UPDATE_BINDING,
  UPDATE_STREAM,
  type UserErrorView,
  testProviderModule,
} from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";
import { prismaOf } from "@stream-registry/store/testing";

const R = "********";
type Maps = Record<string, Record<string, string | number | boolean>>;
type Entity = { generation: number; config: Maps };
type Payload = {
  userErrors: UserErrorView[];
  created?: boolean;
  stream?: Entity;
  cluster?: Entity;
  binding?: Entity;
};

// A sink's maps as a client writes them, and as every query must show them.
const sink = {
  "db.sink": { "connection.url": "postgresql://app:pw-1@db:5432/widgets", db_password: "pw-2", host: "db" },
  "acme.kafka": { owner: "bob@acme.com", team: "widgets-team", "alerts.webhook": "https://chat/hook-3" },
};
const shown = {
  "db.sink": { "connection.url": `postgresql://app:${R}@db:5432/widgets`, db_password: R, host: "db" },
  "acme.kafka": { owner: "bob@acme.com", team: "widgets-team", "alerts.webhook": R },
};

/** Sealed at rest (issue 19): a secret shows its fingerprint; without it, what `shown` says. */
const FP = /\*{8}:[0-9a-f]{12}/g;
const plain = (maps: unknown) => JSON.parse(JSON.stringify(maps).replace(FP, R)) as Maps;

/** A mutation expected to be refused: its payload, userErrors and all. */
async function attempt(r: TestRegistry, mutation: string, input: unknown): Promise<Payload> {
  return Object.values(await r.query<Record<string, Payload>>(mutation, { input }))[0]!;
}

describe("secrets are write-only", () => {
  const registry = useTestRegistry("pglite", {
    REGISTRY_PROVIDERS: `${testProviderModule},@stream-registry/provider-acme`,
  });
  const stored = async (name: string) =>
    (await prismaOf(registry().db.prisma).stream.findUniqueOrThrow({ where: { name } })).config as Maps;

  it("shows secrets redacted, a provider's own secret key included, and keeps them when written back", async () => {
    const r = registry();
    const created = await seed(r).stream({ name: "sec_keep", config: sink });
    expect(plain(created.config)).toEqual(shown);
    // Write back the bare placeholders, changing one public value: the secrets stay, sealed as they
    // were (the same fingerprints), and the row holds none of them.
    const host = { ...shown, "db.sink": { ...shown["db.sink"], host: "db2" } };
    const updated = await mutate<Payload>(r, UPDATE_STREAM, { input: { name: "sec_keep", config: host } });
    const kept = { ...created.config, "db.sink": { ...created.config["db.sink"], host: "db2" } };
    expect(updated.stream?.config).toEqual(kept);
    expect(await stored("sec_keep")).toEqual(kept);
    // Writing back everything unchanged is a no-op.
    const again = await mutate<Payload>(r, UPDATE_STREAM, { input: { name: "sec_keep", config: host } });
    expect(again.stream?.generation).toBe(updated.stream?.generation);
  });

  it("clears a secret left out of the map, and refuses a placeholder with nothing to keep", async () => {
    const r = registry();
    await seed(r).stream({ name: "sec_clear", config: sink });
    const { db_password: _cleared, ...rest } = shown["db.sink"];
    const cleared = await mutate<Payload>(r, UPDATE_STREAM, {
      input: { name: "sec_clear", config: { ...shown, "db.sink": rest } },
    });
    expect(plain(cleared.stream?.config)["db.sink"]).toEqual(rest);
    expect((await stored("sec_clear"))["db.sink"]).not.toHaveProperty("db_password");
    const refused = await attempt(r, UPDATE_STREAM, { name: "sec_clear", config: shown });
    expect(refused.userErrors).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "config", "db.sink", "db_password"],
        message: expect.stringContaining("nothing is stored under that key to keep"),
      }),
    ]);
    expect((await stored("sec_clear"))["db.sink"]).not.toHaveProperty("db_password");
    const fresh = await attempt(r, CREATE_STREAM, { name: "sec_fresh", config: shown });
    expect(fresh.userErrors.map((e) => e.field.join("."))).toEqual([
      "input.config.db.sink.connection.url",
      "input.config.db.sink.db_password",
      "input.config.acme.kafka.alerts.webhook",
    ]);
  });

  it("keeps binding overrides and cluster configs written back the same way", async () => {
    const r = registry();
    const vault = { vault: { token: "t-1", "api-key": "k-1" } };
    const declared = await seed(r).cluster({ name: "sec-c", config: vault });
    // A cluster's secrets are sealed at rest: shown as set, with their fingerprints.
    const sealed = expect.stringMatching(/^\*{8}:[0-9a-f]{12}$/);
    expect(declared.config).toEqual({ vault: { token: sealed, "api-key": sealed } });
    const redeclared = await seed(r).cluster({ name: "sec-c", config: declared.config });
    expect(redeclared.generation).toBe(declared.generation); // unchanged: a no-op
    const cluster = await prismaOf(r.db.prisma).cluster.findUniqueOrThrow({ where: { name: "sec-c" } });
    expect(cluster.config).toEqual(declared.config);

    const stream = await seed(r).stream({ name: "sec_bound", config: {} });
    await seed(r).binding({ stream, cluster: declared, config: vault });
    const updated = await mutate<Payload>(r, UPDATE_BINDING, {
      input: { stream: "sec_bound", cluster: "sec-c", config: { vault: { token: R, "api-key": "k-2" } } },
    });
    expect(updated.binding?.config).toEqual({ vault: { token: sealed, "api-key": sealed } });
    // Sealed at rest like the cluster's (issue 19): the row holds what a query shows.
    const binding = await prismaOf(r.db.prisma).binding.findFirstOrThrow({
      where: { stream: { name: "sec_bound" } },
    });
    expect(binding.config).toEqual(updated.binding?.config);
  });

  it("answers a right and a wrong guess of a secret alike: each is a change", async () => {
    const r = registry();
    // Each guess is accepted (mutate fails the test on userErrors), right or wrong.
    const guess = async (mutation: string, input: Record<string, unknown>) => {
      const {
        userErrors: _none,
        created: _created,
        ...entities
      } = await mutate<Payload>(r, mutation, { input });
      const { generation, ...rest } = Object.values(entities)[0]!;
      return { generation, rest };
    };
    const stream = (password: string) => ({ name: "sec_guess", config: { db: { password, host: "h" } } });
    const first = await guess(CREATE_STREAM, stream("right"));
    const right = await guess(UPDATE_STREAM, stream("right"));
    const wrong = await guess(UPDATE_STREAM, stream("wrong"));
    expect([right.generation - first.generation, wrong.generation - right.generation]).toEqual([1, 1]);
    // Sealed: each guess shows a fingerprint of its own, and the answers differ in nothing else.
    expect(wrong.rest).not.toEqual(right.rest);
    expect(plain(wrong.rest)).toEqual(plain(right.rest));

    const cluster = (password: string) => ({ name: "sec-guess", config: { db: { password } } });
    const declared = await guess(DECLARE_CLUSTER, cluster("right"));
    const rightC = await guess(DECLARE_CLUSTER, cluster("right"));
    const wrongC = await guess(DECLARE_CLUSTER, cluster("wrong"));
    expect([rightC.generation - declared.generation, wrongC.generation - rightC.generation]).toEqual([1, 1]);
    // A sealed secret shows a fingerprint of its own each time it is given: the right guess
    // changes it as the wrong one does, and the answers differ in nothing else.
    const shown = (c: typeof declared) => JSON.stringify(c.rest);
    expect(new Set([shown(declared), shown(rightC), shown(wrongC)]).size).toBe(3);
    const masked = (c: typeof declared) => shown(c).replace(/\*{8}:[0-9a-f]+/g, "********:?");
    expect(masked(wrongC)).toBe(masked(rightC));
  });

  it("refuses filters on secret keys, a provider's included, and on values with credentials", async () => {
    const r = registry();
    await seed(r).stream({ name: "sec_filter", config: { ...sink, mine: { host: "filtered" } } });
    const filter = (map: string, key: string, value: string) =>
      r.request(`query($f: StreamFilter) { streams(filter: $f) { totalCount } }`, {
        f: { config: [{ map, key, value }] },
      });
    for (const [map, key, value, field] of [
      ["db.sink", "db_password", "pw-2", "key"],
      ["acme.kafka", "alerts.webhook", "https://chat/hook-3", "key"],
      ["db.sink", "connection.url", sink["db.sink"]["connection.url"], "value"],
    ] as const) {
      const { errors, data } = await filter(map, key, value);
      expect(data).toBeNull();
      expect(errors?.[0]?.extensions).toMatchObject({
        code: "INVALID_INPUT",
        field: ["filter", "config", "0", field],
      });
    }
    expect((await filter("mine", "host", "filtered")).data).toEqual({ streams: { totalCount: 1 } });
  });

  it("keeps secrets out of the change log, also from entries written under an older rule", async () => {
    const r = registry();
    await seed(r).stream({ name: "sec_log", config: sink });
    await writeTransaction(r.db.prisma, (tx) =>
      recordChange(tx, {
        entityType: "stream",
        entityKey: "sec_old",
        action: "created",
        generation: 1,
        actor: "older-registry",
        data: { config: sink, producerConfig: {}, consumerConfig: {} },
      }),
    );
    const { changes } = await r.query<{
      changes: { nodes: { entityKey: string; data: { config: Maps } }[] };
    }>(`{ changes(first: 500) { nodes { entityKey data } } }`);
    const entries = changes.nodes.filter((c) => c.entityKey === "sec_log" || c.entityKey === "sec_old");
    expect(entries.map((c) => plain(c.data.config))).toEqual([shown, shown]);
    const stored = await prismaOf(r.db.prisma).change.findMany({ where: { entityKey: "sec_log" } });
    expect(JSON.stringify(stored.map((c) => c.data))).not.toMatch(/pw-1|pw-2|hook-3/);
  });
});
