/**
 * npm run bench:flow [-- --groups 1000 --topics 50 --partitions 4 --rounds 5]
 *
 * The cost of one data-in-flight round (the registry's FlowPoller, flow/flow-poller.ts) on a real
 * Kafka broker (the testkit's, single-node KRaft) with many consumer groups: creates `topics` topics
 * of `partitions` partitions with a few records each, and `groups` consumer groups, each with
 * committed offsets on one topic (set by an admin, as stopped consumers leave them), then runs
 * `rounds` rounds of what the poller does per cluster: the Kafka provider's observeFlow for every
 * topic, then core's FlowHistory over the answer. Prints each round's wall time and this process's
 * CPU time (user + system) for it. A benchmark, not a test: it asserts nothing about speed.
 */
import { parseArgs } from "node:util";
import { FlowHistory } from "@stream-registry/core";
import { createKafkaProvider } from "@stream-registry/provider-kafka";
import { kafkaClient, startKafkaCluster } from "@stream-registry/testkit";

const { values } = parseArgs({
  options: {
    groups: { type: "string", default: "1000" },
    topics: { type: "string", default: "50" },
    partitions: { type: "string", default: "4" },
    rounds: { type: "string", default: "5" },
  },
});
const [groups, topics, partitions, rounds] = [
  values.groups,
  values.topics,
  values.partitions,
  values.rounds,
].map(Number) as [number, number, number, number];

const kafka = await startKafkaCluster({ name: "bench-flow" });
const provider = createKafkaProvider();
try {
  const names = Array.from({ length: topics }, (_, i) => `flow_bench_${i}`);
  const admin = kafkaClient(kafka.bootstrapServers).admin();
  await admin.connect();
  const setupStarted = performance.now();
  await admin.createTopics({
    topics: names.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1 })),
    waitForLeaders: true,
  });
  const producer = kafkaClient(kafka.bootstrapServers).producer();
  await producer.connect();
  await producer.sendBatch({
    topicMessages: names.map((topic) => ({
      topic,
      messages: Array.from({ length: partitions * 10 }, (_, i) => ({
        partition: i % partitions,
        value: `r${i}`,
      })),
    })),
  });
  await producer.disconnect();
  for (let at = 0; at < groups; at += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, groups - at) }, (_, i) => {
        const g = at + i;
        return admin.setOffsets({
          groupId: `flow_bench_g${g}`,
          topic: names[g % topics]!,
          partitions: Array.from({ length: partitions }, (_, p) => ({
            partition: p,
            offset: String(g % 10),
          })),
        });
      }),
    );
  }
  await admin.disconnect();
  process.stdout.write(
    `setup: ${topics} topics x ${partitions} partitions, ${groups} groups in ${Math.round(performance.now() - setupStarted)} ms\n`,
  );
  const target = {
    namespace: "/",
    name: "bench",
    config: { "apache.kafka": { "bootstrap.servers": kafka.bootstrapServers } },
  };
  const history = new FlowHistory();
  for (let round = 1; round <= rounds; round += 1) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const flow = await provider.flow.observeFlow(target, names, { signal: AbortSignal.timeout(120_000) });
    const at = Date.parse(flow.observedAt);
    flow.streams.forEach((stream) => history.record(stream.stream, at, stream));
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const seen = flow.streams.reduce((sum, stream) => sum + stream.groups.length, 0);
    process.stdout.write(
      `round ${round}: ${Math.round(wallMs)} ms wall, ${Math.round((used.user + used.system) / 1000)} ms CPU ` +
        `(${seen} group-topic pairs, ${flow.streams.filter((s) => s.error).length} topic errors)\n`,
    );
  }
} finally {
  await provider.close();
  await kafka[Symbol.asyncDispose]();
}
