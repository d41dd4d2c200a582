import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  kafkaClient,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  DELETE_BINDING,
  eventually,
} from "@stream-registry/testkit";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

const BINDING_STATE = `query($stream: String!, $cluster: String!) { binding(stream: $stream, cluster: $cluster) {
  status { phase message } observed { message details } } }`;
const HEALTH = `query($name: String!) { cluster(name: $name) { provider health { status brokerCount latencyMs } } }`;

interface BindingState {
  status: { phase: string; message: string | null };
  observed: { message: string | null; details: Record<string, unknown> } | null;
}

async function bindingState(r: TestRegistry, stream: string, cluster: string) {
  const { binding } = await r.query<{ binding: BindingState | null }>(BINDING_STATE, { stream, cluster });
  return binding;
}

async function topicNames(bootstrap: string): Promise<string[]> {
  const admin = kafkaClient(bootstrap).admin();
  await admin.connect();
  try {
    return await admin.listTopics();
  } finally {
    await admin.disconnect();
  }
}

// The registry loads the generic Kafka provider by itself: no REGISTRY_PROVIDERS needed.
describe("the built-in kafka provider in a registry", () => {
  const kafka = useSharedKafkaClusters();
  const registry = useTestRegistry("pglite", { RECONCILER_RESYNC_MS: "500" });
  const suffix = randomBytes(3).toString("hex");

  it("declares a Kafka cluster (healthy, with its broker count) and realizes a binding as a real topic", async () => {
    const r = registry();
    const bootstrap = kafka.at(0).bootstrapServers;
    const [cluster, stream] = [`kafka_${suffix}`, `orders_${suffix}`];
    const { declareCluster } = await r.query<{ declareCluster: { userErrors: unknown[] } }>(DECLARE_CLUSTER, {
      input: {
        name: cluster,
        provider: "kafka",
        config: { "apache.kafka": { "bootstrap.servers": bootstrap } },
      },
    });
    expect(declareCluster.userErrors).toEqual([]);
    const { cluster: declared } = await r.query<{
      cluster: { provider: string; health: { status: string; brokerCount: number; latencyMs: number } };
    }>(HEALTH, { name: cluster });
    expect(declared).toMatchObject({ provider: "kafka", health: { status: "UP", brokerCount: 1 } });
    expect(declared.health.latencyMs).toBeGreaterThanOrEqual(0);

    await r.query(CREATE_STREAM, {
      input: { name: stream, config: { "apache.kafka": { partitions: 3, replication: 1 } } },
    });
    await r.query(CREATE_BINDING, { input: { stream, cluster } });
    const online = await eventually(
      async () => {
        const b = await bindingState(r, stream, cluster);
        return b?.status.phase === "ONLINE" ? b : undefined;
      },
      30_000,
      "ONLINE",
    );
    expect(await topicNames(bootstrap)).toContain(stream);
    expect(online.observed?.details).toMatchObject({ partitions: 3 });

    // A topic deleted behind the registry's back is found by the resync and created again.
    const admin = kafkaClient(bootstrap).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [stream], timeout: 10_000 });
    await admin.disconnect();
    await eventually(
      async () => ((await topicNames(bootstrap)).includes(stream) ? true : undefined),
      30_000,
      "the topic to be re-created",
    );

    await r.query(DELETE_BINDING, { input: { stream, cluster } });
    await eventually(
      async () => ((await bindingState(r, stream, cluster)) === null ? true : undefined),
      30_000,
      "the binding to go",
    );
    expect(await topicNames(bootstrap)).not.toContain(stream);
  }, 90_000);

  it("refuses a stream that does not fit the cluster, naming the field", async () => {
    const r = registry();
    const [cluster, stream] = [`kafka_fit_${suffix}`, `wide_${suffix}`];
    await r.query(DECLARE_CLUSTER, {
      input: {
        name: cluster,
        provider: "kafka",
        config: { "apache.kafka": { "bootstrap.servers": kafka.at(0).bootstrapServers } },
      },
    });
    await r.query(CREATE_STREAM, { input: { name: stream, config: { "apache.kafka": { replication: 3 } } } });
    const { createBinding } = await r.query<{
      createBinding: { userErrors: { code: string; field: string[] }[] };
    }>(CREATE_BINDING, { input: { stream, cluster } });
    expect(createBinding.userErrors).toEqual([
      expect.objectContaining({
        code: "PROVIDER_REJECTED",
        field: ["input", "config", "apache.kafka", "replication"],
      }),
    ]);
  });
});
