import type { ClusterTarget, ConsumerGroupFlow } from "@stream-registry/provider-api";
import { kafkaClient } from "@stream-registry/testkit";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaProvider } from "../src/index.ts";
import { clusterTarget, context, eventually, ownAdmin, topicName } from "./support/kafka-targets.ts";
import { startNewProtocolConsumer } from "./support/new-protocol-consumer.ts";

const kafka = useSharedKafkaClusters();
const provider = createKafkaProvider();
const topic = topicName("flow");
const missing = topicName("flow_missing");
const classic = topicName("g_classic");
const kip848 = topicName("g_kip848");
let target: ClusterTarget;
let consumer: AsyncDisposable | undefined;

beforeAll(async () => {
  const servers = kafka.at(0).bootstrapServers;
  target = clusterTarget(servers, "flow");
  await using admin = await ownAdmin(servers);
  await admin.createTopics({
    topics: [{ topic, numPartitions: 2, replicationFactor: 1 }],
    waitForLeaders: true,
  });
  const producer = kafkaClient(servers).producer();
  await producer.connect();
  // 6 records on partition 0, 4 on partition 1.
  await producer.send({
    topic,
    messages: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1].map((partition, i) => ({ partition, value: `r${i}` })),
  });
  await producer.disconnect();
  // A classic group with no members: its offsets set by an admin, as a stopped consumer leaves them.
  await admin.setOffsets({ groupId: classic, topic, partitions: [{ partition: 0, offset: "2" }] });
  // A live member of a group on the consumer protocol (KIP-848), which has read and committed 3.
  consumer = await startNewProtocolConsumer(servers, kip848, topic, 3);
}, 120_000);
afterAll(async () => {
  await consumer?.[Symbol.asyncDispose]();
  await provider.close();
});

const groupNamed = (groups: readonly ConsumerGroupFlow[], name: string) => {
  const group = groups.find((g) => g.group === name);
  if (!group) throw new Error(`no group ${name} in ${JSON.stringify(groups.map((g) => g.group))}`);
  return group;
};

describe("observeFlow on Kafka", () => {
  it("reads end offsets, records, and each group's committed offsets and lag per partition", async () => {
    const flow = await provider.flow.observeFlow(target, [topic], context());
    expect(Date.parse(flow.observedAt)).not.toBeNaN();
    const [stream] = flow.streams;
    expect(stream).toMatchObject({
      stream: topic,
      records: 10,
      partitions: [
        { partition: 0, start: 0, end: 6 },
        { partition: 1, start: 0, end: 4 },
      ],
    });
    expect(groupNamed(stream!.groups, classic)).toEqual({
      group: classic,
      state: "Empty",
      protocol: "classic",
      members: 0,
      // Partition 0 committed at 2 (4 to read); partition 1 never committed (all 4 to read).
      lag: 8,
      partitions: [
        { partition: 0, committed: 2, end: 6, lag: 4 },
        { partition: 1, committed: null, end: 4, lag: 4 },
      ],
    });
  });

  it("computes the lag of a group on the new consumer protocol from its committed offsets", async () => {
    // kafkajs' describe cannot read such a group (it answers Dead): its lag comes from its offsets.
    const group = await eventually(async () => {
      const flow = await provider.flow.observeFlow(target, [topic], context());
      return groupNamed(flow.streams[0]!.groups, kip848);
    });
    expect(group).toMatchObject({ group: kip848, protocol: "consumer", state: "Unknown", members: null });
    const committed = group.partitions.reduce((sum, p) => sum + (p.committed ?? 0), 0);
    expect(committed).toBe(3);
    expect(group.lag).toBe(10 - 3);
  });

  it("answers a missing topic with its error beside the others, in the order asked", async () => {
    const flow = await provider.flow.observeFlow(target, [missing, topic], context());
    expect(flow.streams.map((s) => s.stream)).toEqual([missing, topic]);
    expect(flow.streams[0]).toMatchObject({
      records: 0,
      groups: [],
      error: `topic "${missing}" does not exist`,
    });
    expect(flow.streams[1]!.records).toBe(10);
  });

  it("names a sink's consumer group as Kafka Connect does for its connector", () => {
    expect(provider.flow.sinkGroup("widgets")).toBe("connect-widgets-sink");
  });

  it("rejects at once, touching nothing, when the call's signal is already aborted", async () => {
    const aborted = new AbortController();
    aborted.abort(new Error("stop"));
    await expect(provider.flow.observeFlow(target, [topic], { signal: aborted.signal })).rejects.toThrow();
  });
});
