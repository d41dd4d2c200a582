import { describe, expect, it } from "vitest";
import {
  databaseKinds,
  mutate,
  seed,
  seedWidgetsStream,
  eventually,
  BINDING,
  DECLARE_CLUSTER,
  DELETE_BINDING,
  DELETE_STREAM,
  DESCRIBE_BINDINGS,
  UPDATE_BINDING,
  UPDATE_STREAM,
  type BindingView,
  type UserErrorView,
} from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

// The seed's CREATE STREAM "widgets_v0" example, as config maps.
const { config: widgetsConfig, producerConfig: clientConfig } = seedWidgetsStream;

async function waitOnline(registry: TestRegistry, stream: string, cluster: string, generation: number) {
  return eventually(
    async () => {
      const { binding } = await registry.query<{ binding: BindingView | null }>(BINDING, { stream, cluster });
      const s = binding?.status;
      return s?.phase === "ONLINE" && s.observedGeneration === generation ? binding : undefined;
    },
    15_000,
    `${cluster}/${stream} ONLINE at generation ${generation}`,
  );
}

describe.each(databaseKinds)("registry API on %s", (kind) => {
  const registry = useTestRegistry(kind);

  it("answers SHOW NAMESPACE with the root namespace", async () => {
    expect(await registry().query(`{ namespace { path } }`)).toEqual({ namespace: { path: "/" } });
  });

  it("runs the seed's stream and binding walkthrough", async () => {
    const r = registry();
    for (const name of ["cluster001", "cluster002"]) {
      expect(await mutate(r, DECLARE_CLUSTER, { input: { name } })).toMatchObject({ created: true });
    }
    const created = await seed(r).stream({
      name: "widgets_v0",
      config: widgetsConfig,
      producerConfig: clientConfig,
      consumerConfig: clientConfig,
    });
    expect(created.generation).toBe(1);

    const first = await seed(r).binding({ stream: "widgets_v0", cluster: "cluster001" });
    // Async API: the mutation returns at once with PENDING.
    expect(first).toMatchObject({
      fqn: "/cluster001/widgets_v0",
      isDefault: true,
      status: { phase: "PENDING", generation: 1, observedGeneration: null },
    });
    await seed(r).binding({
      stream: "widgets_v0",
      cluster: "cluster002",
      config: { "apache.kafka": { partitions: 20 } },
      producerConfig: { "apache.kafka": { acks: "1" } },
      consumerConfig: { "apache.kafka": { "max.poll.records": 100 } },
    });
    await waitOnline(r, "widgets_v0", "cluster001", 1);
    await waitOnline(r, "widgets_v0", "cluster002", 1);

    // DESCRIBE BINDINGS "widgets_v0"
    const described = await r.query<{
      bindings: { nodes: { stream: { name: string }; cluster: { name: string }; isDefault: boolean }[] };
    }>(DESCRIBE_BINDINGS, { stream: "widgets_v0" });
    expect(described.bindings.nodes.map((b) => [b.stream.name, b.cluster.name, b.isDefault])).toEqual([
      ["widgets_v0", "cluster001", true],
      ["widgets_v0", "cluster002", false],
    ]);

    // Binding-level maps override stream-level ones key by key; no cluster means the default binding.
    const effective = await r.query<{
      stream: { onDefault: Record<string, unknown>; on002: Record<string, unknown> };
    }>(
      `{ stream(name: "widgets_v0") {
          onDefault: effectiveConfig { cluster isDefault producerConfig }
          on002: effectiveConfig(cluster: "cluster002") { cluster isDefault config producerConfig consumerConfig } } }`,
    );
    expect(effective.stream.onDefault).toEqual({
      cluster: "cluster001",
      isDefault: true,
      producerConfig: clientConfig,
    });
    expect(effective.stream.on002).toEqual({
      cluster: "cluster002",
      isDefault: false,
      config: { ...widgetsConfig, "apache.kafka": { ...widgetsConfig["apache.kafka"], partitions: 20 } },
      producerConfig: { "apache.kafka": { acks: "1", retries: 0, "enable.idempotence": "false" } },
      consumerConfig: { "apache.kafka": { ...clientConfig["apache.kafka"], "max.poll.records": 100 } },
    });
  });

  it("re-realizes every binding when the stream changes, and skips no-op updates", async () => {
    const r = registry();
    const cluster = await seed(r).cluster({ name: "upd-c1" });
    const stream = await seed(r).stream({ name: "upd_s", config: { "acme.kafka": { team: "a" } } });
    await seed(r).binding({ stream, cluster });
    await waitOnline(r, "upd_s", "upd-c1", 1);

    const update = { input: { name: "upd_s", config: { "acme.kafka": { team: "b" } } } };
    const updated = await mutate<{ stream: { generation: number; config: unknown } }>(
      r,
      UPDATE_STREAM,
      update,
    );
    expect(updated.stream).toEqual(
      expect.objectContaining({ generation: 2, config: { "acme.kafka": { team: "b" } } }),
    );
    await waitOnline(r, "upd_s", "upd-c1", 2);

    const again = await mutate<{ stream: { generation: number } }>(r, UPDATE_STREAM, update);
    expect(again.stream.generation).toBe(2);

    const { binding } = await mutate<{ binding: BindingView }>(r, UPDATE_BINDING, {
      input: { stream: "upd_s", cluster: "upd-c1", config: { "acme.kafka": { team: "c" } } },
    });
    expect(binding.status).toMatchObject({ phase: "PENDING", generation: 3 });
    await waitOnline(r, "upd_s", "upd-c1", 3);
  });

  it("deletes bindings asynchronously and hands the default to the next binding", async () => {
    const r = registry();
    const stream = await seed(r).stream({ name: "del_s" });
    for (const name of ["del-c1", "del-c2"])
      await seed(r).binding({ stream, cluster: await seed(r).cluster({ name }) });

    const deleted = await mutate<{ binding: BindingView }>(r, DELETE_BINDING, {
      input: { stream: "del_s", cluster: "del-c1" },
    });
    expect(deleted.binding.status.phase).toBe("DELETING");
    // The default moves at once: clients naming no cluster must not be sent to one being torn down.
    const during = await r.query<{ stream: { defaultBinding: { cluster: { name: string } } } }>(
      `{ stream(name: "del_s") { defaultBinding { cluster { name } } } }`,
    );
    expect(during.stream.defaultBinding.cluster.name).toBe("del-c2");
    const { changes } = await r.query<{ changes: { nodes: { action: string; entityKey: string }[] } }>(
      `{ changes(first: 500) { nodes { action entityKey } } }`,
    );
    expect(changes.nodes).toContainEqual({ action: "became-default", entityKey: "/del-c2/del_s" });
    await eventually(async () => {
      const { binding } = await r.query<{ binding: BindingView | null }>(BINDING, {
        stream: "del_s",
        cluster: "del-c1",
      });
      return binding === null ? true : undefined;
    });
    const { binding } = await r.query<{ binding: BindingView }>(BINDING, {
      stream: "del_s",
      cluster: "del-c2",
    });
    expect(binding.isDefault).toBe(true);
  });

  it("refuses to delete a stream with bindings unless asked to cascade", async () => {
    const r = registry();
    await seed(r).binding({
      stream: await seed(r).stream({ name: "cas_s" }),
      cluster: await seed(r).cluster({ name: "cas-c1" }),
    });

    const refused = await r.query<{ deleteStream: { deleted: boolean | null; userErrors: UserErrorView[] } }>(
      DELETE_STREAM,
      {
        input: { name: "cas_s" },
      },
    );
    expect(refused.deleteStream.userErrors).toEqual([
      expect.objectContaining({
        code: "IN_USE",
        field: ["input", "name"],
        message: expect.stringContaining("cas-c1"),
      }),
    ]);

    const cascade = await mutate(r, DELETE_STREAM, { input: { name: "cas_s", cascade: true } });
    expect(cascade).toMatchObject({ deleted: false, stream: { deleting: true } });
    await eventually(async () => {
      const { stream } = await r.query<{ stream: unknown }>(`{ stream(name: "cas_s") { name } }`);
      return stream === null ? true : undefined;
    });
  });

  it("never returns secrets, and records every change with its actor in order", async () => {
    const r = registry();
    const cluster = await seed(r).cluster({
      name: "sec-c1",
      config: {
        // Keys the built-in kafka provider knows: it validates "apache.kafka" wherever it appears.
        "apache.kafka": {
          "bootstrap.servers": "b:9092",
          "security.protocol": "SASL_SSL",
          "sasl.mechanism": "PLAIN",
          "sasl.username": "registry",
          "sasl.password": "pw",
        },
        "acme.vault": { "sasl.jaas.config": "secret-jaas" },
      },
    });
    // A secret shows as set, with the fingerprint of its value (sealed at rest).
    const sealed = expect.stringMatching(/^\*{8}:[0-9a-f]{12}$/);
    const redacted = {
      "apache.kafka": {
        "bootstrap.servers": "b:9092",
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "PLAIN",
        "sasl.username": "registry",
        "sasl.password": sealed,
      },
      "acme.vault": { "sasl.jaas.config": sealed },
    };
    expect(cluster.config).toEqual(redacted);

    const { changes } = await r.query<{
      changes: { nodes: { seq: string; entityType: string; entityKey: string; action: string }[] };
    }>(`{ changes(first: 500) { nodes { seq entityType entityKey action actor data } } }`);
    const seqs = changes.nodes.map((c) => BigInt(c.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => (a < b ? -1 : 1)));
    expect(changes.nodes).toContainEqual(
      expect.objectContaining({
        entityType: "cluster",
        entityKey: "sec-c1",
        action: "created",
        actor: "token:admin",
        // The log says what the cluster became, without its secrets.
        data: {
          provider: "registry-only",
          config: redacted,
        },
      }),
    );
  });
});
