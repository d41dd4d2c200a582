import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  eventually,
  kafkaClient,
} from "@stream-registry/testkit";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { useTestRegistry } from "./support/test-registry.ts";

// Binding.flow end to end on real brokers: the registry's poller (driven round by round) reads the
// topic's offsets and a consumer group's committed offsets through the built-in Kafka provider.
const kafka = useSharedKafkaClusters();
const registry = useTestRegistry("pglite");
const suffix = randomBytes(3).toString("hex");

const FLOW = `query($stream: String!, $cluster: String!) { binding(stream: $stream, cluster: $cluster) {
  status { phase } flow { observedAt records producedPerSecond error partitions { partition start end }
    groups { group state protocol members lag health partitions { partition committed end lag } } } } }`;
type Answer = {
  binding: {
    status: { phase: string };
    flow: { records: number; groups: unknown[]; error: string | null } | null;
  };
};

describe("Binding.flow on Kafka", () => {
  it("shows the topic's records and a group's lag per partition after a poll", async () => {
    const r = registry();
    const bootstrap = kafka.at(0).bootstrapServers;
    const [cluster, stream, group] = [`flow_${suffix}`, `payments_${suffix}`, `ledger_${suffix}`];
    await r.query(DECLARE_CLUSTER, {
      input: {
        name: cluster,
        provider: "kafka",
        config: { "apache.kafka": { "bootstrap.servers": bootstrap } },
      },
    });
    await r.query(CREATE_STREAM, {
      input: { name: stream, config: { "apache.kafka": { partitions: 2, replication: 1 } } },
    });
    await r.query(CREATE_BINDING, { input: { stream, cluster } });
    await eventually(
      async () => {
        const { binding } = await r.query<Answer>(FLOW, { stream, cluster });
        return binding.status.phase === "ONLINE" ? binding : undefined;
      },
      30_000,
      "ONLINE",
    );
    const producer = kafkaClient(bootstrap).producer();
    await producer.connect();
    await producer.send({
      topic: stream,
      messages: [0, 0, 0, 1, 1].map((partition) => ({ partition, value: "x" })),
    });
    await producer.disconnect();
    const admin = kafkaClient(bootstrap).admin();
    await admin.connect();
    await admin.setOffsets({ groupId: group, topic: stream, partitions: [{ partition: 0, offset: "1" }] });
    await admin.disconnect();

    expect((await r.query<Answer>(FLOW, { stream, cluster })).binding.flow).toBeNull();
    expect(await r.flow.round(new AbortController().signal)).toMatchObject({ failed: 0 });
    const { flow } = (await r.query<Answer>(FLOW, { stream, cluster })).binding;
    expect(flow).toMatchObject({
      records: 5,
      producedPerSecond: null,
      error: null,
      partitions: [
        { partition: 0, start: 0, end: 3 },
        { partition: 1, start: 0, end: 2 },
      ],
      groups: [
        {
          group,
          state: "Empty",
          protocol: "CLASSIC",
          members: 0,
          lag: 4,
          health: "OK",
          partitions: [
            { partition: 0, committed: 1, end: 3, lag: 2 },
            { partition: 1, committed: null, end: 2, lag: 2 },
          ],
        },
      ],
    });
  }, 90_000);
});
