import { describe, expect, it } from "vitest";
import {
  kafkaClient,
  BINDING,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  type BindingView,
  eventually,
} from "@stream-registry/testkit";
import { usePrivateKafkaClusters } from "@stream-registry/testkit/vitest";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

const CLUSTER = "outage";
const HEALTH = `query($name: String!) { cluster(name: $name) { health { status lastError } } }`;

interface Health {
  status: string;
  lastError: string | null;
}

async function binding(r: TestRegistry, stream: string): Promise<BindingView> {
  const { binding } = await r.query<{ binding: BindingView | null }>(BINDING, { stream, cluster: CLUSTER });
  if (!binding) throw new Error(`binding ${stream} not found`);
  return binding;
}

async function health(r: TestRegistry): Promise<Health> {
  const { cluster } = await r.query<{ cluster: { health: Health } }>(HEALTH, { name: CLUSTER });
  return cluster.health;
}

async function createBoundStream(r: TestRegistry, stream: string, partitions: number): Promise<BindingView> {
  const created = await r.query<{ createStream: { userErrors: unknown[] } }>(CREATE_STREAM, {
    input: { name: stream, config: { "apache.kafka": { partitions, replication: 1 } } },
  });
  expect(created.createStream.userErrors).toEqual([]);
  const bound = await r.query<{ createBinding: { binding: BindingView; userErrors: unknown[] } }>(
    CREATE_BINDING,
    { input: { stream, cluster: CLUSTER } },
  );
  expect(bound.createBinding.userErrors).toEqual([]);
  return bound.createBinding.binding;
}

describe("a Kafka cluster that goes down and comes back", () => {
  const kafka = usePrivateKafkaClusters(1);
  const registry = useTestRegistry("pglite", {
    REGISTRY_HEALTH_INTERVAL_MS: "500",
    RECONCILER_RETRY_MAX_MS: "1000",
  });

  it("keeps bindings made during the outage PENDING with the reason, then realizes all of them", async () => {
    const r = registry();
    const broker = kafka.at(0);
    const declared = await r.query<{ declareCluster: { userErrors: unknown[] } }>(DECLARE_CLUSTER, {
      input: {
        name: CLUSTER,
        provider: "kafka",
        config: { "apache.kafka": { "bootstrap.servers": broker.bootstrapServers } },
      },
    });
    expect(declared.declareCluster.userErrors).toEqual([]);
    expect((await health(r)).status).toBe("UP");

    await createBoundStream(r, "before_outage", 2);
    await eventually(
      async () => ((await binding(r, "before_outage")).status.phase === "ONLINE" ? true : undefined),
      30_000,
      "before_outage ONLINE",
    );

    await broker.stop();
    // A probe in flight while the broker shuts down sees "Closed connection"; once it is
    // gone, every probe is refused, and the health says so.
    const refused = `ECONNREFUSED ${broker.bootstrapServers}`;
    const down = await eventually(
      async () => {
        const h = await health(r);
        return h.status === "DOWN" && h.lastError?.includes(refused) ? h : undefined;
      },
      30_000,
      "cluster health DOWN, connection refused",
    );
    expect(down.lastError).toContain("cannot reach the cluster");

    const during = [
      { stream: "during_outage_1", partitions: 1 },
      { stream: "during_outage_2", partitions: 3 },
      { stream: "during_outage_3", partitions: 4 },
    ];
    for (const { stream, partitions } of during) {
      const created = await createBoundStream(r, stream, partitions);
      expect(created.status.phase).toBe("PENDING");
    }
    // The reconciler has tried and failed by now: the status says why.
    for (const { stream } of during) {
      const pending = await eventually(
        async () => {
          const b = await binding(r, stream);
          return b.status.message?.includes(refused) ? b : undefined;
        },
        30_000,
        `a connection-refused message on ${stream}`,
      );
      expect(pending.status.phase).toBe("PENDING");
      // e.g. attempt 3 failed: create topic "during_outage_1" on Kafka cluster "/outage" (127.0.0.1:PORT)
      // failed: cannot reach the cluster: Connection error: connect ECONNREFUSED 127.0.0.1:PORT; retrying in 0.1s
      expect(pending.status.message).toContain(`"${stream}"`);
      expect(pending.status.message).toContain("cannot reach the cluster");
    }

    await broker.start();
    for (const { stream } of during) {
      await eventually(
        async () => ((await binding(r, stream)).status.phase === "ONLINE" ? true : undefined),
        60_000,
        `${stream} ONLINE after the broker is back`,
      );
    }
    expect(
      (
        await eventually(
          async () => {
            const h = await health(r);
            return h.status === "UP" ? h : undefined;
          },
          30_000,
          "cluster health UP again",
        )
      ).lastError,
    ).toContain("cannot reach the cluster");

    const admin = kafkaClient(broker.bootstrapServers).admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: during.map((d) => d.stream) });
      const partitionsByTopic = Object.fromEntries(topics.map((t) => [t.name, t.partitions.length]));
      expect(partitionsByTopic).toEqual(Object.fromEntries(during.map((d) => [d.stream, d.partitions])));
      expect(await admin.listTopics()).toContain("before_outage");
    } finally {
      await admin.disconnect();
    }
  }, 180_000);
});
