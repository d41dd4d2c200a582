import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { kafkaClient } from "@stream-registry/testkit";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import {
  BINDING,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  UPDATE_STREAM,
  type BindingView,
} from "./support/operations.ts";
import { eventually, useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

const lossyKafkaModule = fileURLToPath(new URL("./fixtures/lossy-kafka-provider.ts", import.meta.url));

async function binding(r: TestRegistry, stream: string, cluster: string): Promise<BindingView> {
  const { binding } = await r.query<{ binding: BindingView }>(BINDING, { stream, cluster });
  return binding;
}

async function partitionsOf(bootstrap: string, topic: string): Promise<number> {
  const admin = kafkaClient(bootstrap).admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    return topics[0]!.partitions.length;
  } finally {
    await admin.disconnect();
  }
}

// A create whose outcome is unknown (a timeout after the broker applied it, or a crash before the
// registry recorded it) is followed by a change of the desired state before the retry.
describe("a binding whose create outcome was lost, then changed", () => {
  const kafka = useSharedKafkaClusters();
  // A long retry delay: the update, which runs at once, comes before the retry.
  const registry = useTestRegistry("pglite", {
    REGISTRY_PROVIDERS: lossyKafkaModule,
    RECONCILER_RETRY_BASE_MS: "60000",
    RECONCILER_RETRY_MAX_MS: "60000",
  });
  const suffix = randomBytes(3).toString("hex");
  const cluster = `lossy_${suffix}`;

  async function bindStream(r: TestRegistry, stream: string, partitions: number): Promise<void> {
    await r.query(DECLARE_CLUSTER, {
      input: {
        name: cluster,
        provider: "lossy-kafka",
        config: { "apache.kafka": { "bootstrap.servers": kafka.at(0).bootstrapServers } },
      },
    });
    await r.query(CREATE_STREAM, {
      input: { name: stream, config: { "apache.kafka": { partitions, replication: 1 } } },
    });
    await r.query(CREATE_BINDING, { input: { stream, cluster } });
    await eventually(
      async () => ((await binding(r, stream, cluster)).status.message?.includes("(test)") ? true : undefined),
      30_000,
      `the first create of ${stream} to fail`,
    );
  }

  async function settled(r: TestRegistry, stream: string): Promise<BindingView> {
    return eventually(
      async () => {
        const b = await binding(r, stream, cluster);
        return b.status.phase !== "PENDING" ? b : undefined;
      },
      30_000,
      `${stream} to settle`,
    );
  }

  it("adopts the topic its own lost create made and updates it to the new desired state", async () => {
    const r = registry();
    const stream = `lost_${suffix}`;
    await bindStream(r, stream, 2);
    expect(await partitionsOf(kafka.at(0).bootstrapServers, stream)).toBe(2);

    await r.query(UPDATE_STREAM, {
      input: { name: stream, config: { "apache.kafka": { partitions: 4, replication: 1 } } },
    });
    const done = await settled(r, stream);
    expect(done.status).toMatchObject({ phase: "ONLINE", generation: 2, observedGeneration: 2 });
    expect(done.status.message).toContain("partitions 2 -> 4");
    expect(await partitionsOf(kafka.at(0).bootstrapServers, stream)).toBe(4);
  });

  it("still refuses a foreign topic that differs from what its create sent, leaving it as it is", async () => {
    const r = registry();
    const stream = `unsent_${suffix}`;
    await bindStream(r, stream, 2);
    const admin = kafkaClient(kafka.at(0).bootstrapServers).admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: [{ topic: stream, numPartitions: 5 }], waitForLeaders: true });
    } finally {
      await admin.disconnect();
    }

    await r.query(UPDATE_STREAM, {
      input: { name: stream, config: { "apache.kafka": { partitions: 6, replication: 1 } } },
    });
    const done = await settled(r, stream);
    expect(done.status.phase).toBe("FAILED");
    expect(done.status.message).toContain("with different settings");
    expect(done.status.message).toContain("partitions 5 (wanted 6)");
    expect(await partitionsOf(kafka.at(0).bootstrapServers, stream)).toBe(5);
  });
});
