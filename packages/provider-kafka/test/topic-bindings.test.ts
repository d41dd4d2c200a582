import type { ClusterTarget } from "@stream-registry/provider-api";
import { kafkaClient } from "@stream-registry/testkit";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  providerFailure,
  bindingRequest,
  clusterTarget,
  context,
  countingProvider,
  eventually,
  inspectTopic,
  ownAdmin,
  topicName,
} from "./support/kafka-targets.ts";
import { MANAGED_TOPIC_CONFIGS } from "../src/config/stream-config.ts";
import { PASSTHROUGH_TOPIC_CONFIGS } from "../src/config/topic-passthrough.ts";

const kafka = useSharedKafkaClusters();
const { provider, counts } = countingProvider();
const infra = provider.infrastructure;
let first: ClusterTarget;
let second: ClusterTarget;

beforeAll(() => {
  first = clusterTarget(kafka.at(0).bootstrapServers, "kafka-a");
  second = clusterTarget(kafka.at(1).bootstrapServers, "kafka-b");
});
afterAll(() => provider.close());

describe("createStreamBinding", () => {
  it("creates the topic with exactly the desired partitions, replication and configs", async () => {
    const name = topicName("widgets");
    const observation = await infra.createStreamBinding(
      bindingRequest(name, first, {
        "apache.kafka": {
          partitions: 3,
          replication: 1,
          min_isr: 1,
          compacted: "true",
          compression: "snappy",
          "unclean.leader.election.enable": "false",
          "retention.ms": 3_600_000,
          "key.serde": "string",
          "value.serde": "specific",
        },
        "apache.kafka.topic": { "segment.ms": 600_000, "message.timestamp.type": "LogAppendTime" },
      }),
      context(),
    );
    await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
    const expected = {
      "min.insync.replicas": "1",
      "cleanup.policy": "compact",
      "compression.type": "snappy",
      "unclean.leader.election.enable": "false",
      "retention.ms": "3600000",
      "segment.ms": "600000",
      "message.timestamp.type": "LogAppendTime",
    };
    expect(await inspectTopic(admin, name)).toEqual({
      partitions: 3,
      replicationFactor: 1,
      overrides: expected,
    });
    expect(observation).toEqual({
      message: `created topic "${name}": 3 partition(s), replication factor 1, 0 record(s)`,
      details: { partitions: 3, replicationFactor: 1, configs: expected, records: 0 },
    });
  });

  it("adopts an identical existing topic and refuses a different one, listing the differences", async () => {
    const name = topicName("existing");
    await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
    await admin.createTopics({
      topics: [{ topic: name, numPartitions: 3, configEntries: [{ name: "retention.ms", value: "60000" }] }],
    });

    const error = await providerFailure(
      infra.createStreamBinding(
        bindingRequest(name, first, {
          "apache.kafka": { partitions: 10, compacted: true, "retention.ms": 60_000 },
        }),
        context(),
      ),
    );
    expect(error.retriable).toBe(false);
    expect(error.message).toContain(
      `topic "${name}" exists on Kafka cluster "/kafka-a" with different settings: ` +
        "partitions 3 (wanted 10); cleanup.policy delete (wanted compact).",
    );
    // Never silently altered.
    expect(await inspectTopic(admin, name)).toEqual({
      partitions: 3,
      replicationFactor: 1,
      overrides: { "retention.ms": "60000" },
    });

    const adopted = await infra.createStreamBinding(
      bindingRequest(name, first, {
        "apache.kafka": { partitions: 3, compacted: false, "retention.ms": "60000" },
      }),
      context(),
    );
    expect(adopted.message).toBe(
      `adopted existing topic "${name}": 3 partition(s), replication factor 1, 0 record(s)`,
    );
    // A retried create (the registry crashed after creating) adopts its own topic.
    const again = await infra.createStreamBinding(
      bindingRequest(name, first, { "apache.kafka": { partitions: 3 } }),
      context(),
    );
    expect(again.message).toContain("adopted existing");
  });

  it("passes through exactly the broker's topic configs that no typed key sets", async () => {
    const name = topicName("names");
    await infra.createStreamBinding(bindingRequest(name, first, {}), context());
    await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
    const { resources } = await admin.describeConfigs({
      resources: [{ type: 2, name }],
      includeSynonyms: false,
    });
    const brokerNames = (resources[0]?.configEntries ?? []).map((entry) => entry.configName);
    const typed = Object.keys(MANAGED_TOPIC_CONFIGS);
    expect([...PASSTHROUGH_TOPIC_CONFIGS, ...typed].sort()).toEqual(brokerNames.sort());
  });

  it("maps the broker's refusals to permanent errors naming the topic and the Kafka error", async () => {
    const name = topicName("refused");
    const badConfig = await providerFailure(
      infra.createStreamBinding(
        bindingRequest(name, first, { "apache.kafka.topic": { "segment.bytes": "lots" } }),
        context(),
      ),
    );
    expect(badConfig.retriable).toBe(false);
    expect(badConfig.message).toContain(`create topic "${name}" on Kafka cluster "/kafka-a"`);
    expect(badConfig.message).toContain("INVALID_CONFIG");

    const tooManyReplicas = await providerFailure(
      infra.createStreamBinding(
        bindingRequest(name, first, { "apache.kafka": { replication: 3 } }),
        context(),
      ),
    );
    // Retried: KRaft gives the same answer while a broker restarts; validation refuses it up front.
    expect(tooManyReplicas.retriable).toBe(true);
    expect(tooManyReplicas.message).toContain("INVALID_REPLICATION_FACTOR");
    expect(await infra.observeStreamBinding(name, first, context())).toBeNull();
  });
});

describe("updateStreamBinding", () => {
  it("merges configs into the current overrides (keeping others) and grows partitions", async () => {
    const name = topicName("update");
    await infra.createStreamBinding(
      bindingRequest(name, first, {
        "apache.kafka": { partitions: 2, "retention.ms": 60_000 },
        "apache.kafka.topic": { "segment.ms": 600_000 },
      }),
      context(),
    );
    await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
    // Set out of band; alterConfigs replaces the whole set, so the test keeps the existing ones.
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: 2,
          name,
          configEntries: [
            { name: "retention.ms", value: "60000" },
            { name: "segment.ms", value: "600000" },
            { name: "max.compaction.lag.ms", value: "86400000" },
          ],
        },
      ],
    });

    const observation = await infra.updateStreamBinding(
      bindingRequest(name, first, {
        "apache.kafka": { partitions: 5, "retention.ms": 120_000, compression: "gzip" },
      }),
      context(),
    );
    expect(await inspectTopic(admin, name)).toEqual({
      partitions: 5,
      replicationFactor: 1,
      overrides: {
        "retention.ms": "120000",
        "compression.type": "gzip",
        // Set earlier through the pass-through map, and out of band: both kept.
        "segment.ms": "600000",
        "max.compaction.lag.ms": "86400000",
      },
    });
    expect(observation.message).toBe(
      `updated (set compression.type=gzip, retention.ms=120000; partitions 2 -> 5) topic "${name}": ` +
        "5 partition(s), replication factor 1, 0 record(s)",
    );

    const unchanged = await infra.updateStreamBinding(
      bindingRequest(name, first, { "apache.kafka": { partitions: 5, "retention.ms": 120_000 } }),
      context(),
    );
    expect(unchanged.message).toMatch(/^unchanged topic/);
  });

  it("refuses a partition decrease as bad input, in validation and in update", async () => {
    const name = topicName("shrink");
    await infra.createStreamBinding(
      bindingRequest(name, first, { "apache.kafka": { partitions: 4 } }),
      context(),
    );
    const smaller = { "apache.kafka": { partitions: 2 } };

    const invalid = await providerFailure(
      infra.validateStream(name, smaller, { ...context(), cluster: first }),
    );
    expect(invalid.retriable).toBe(false);
    expect(invalid.issues).toEqual([
      {
        field: ["apache.kafka", "partitions"],
        message: `topic "${name}" already has 4 partitions; "partitions" 2 would decrease them, which Kafka cannot do`,
      },
    ]);
    const refused = await providerFailure(
      infra.updateStreamBinding(bindingRequest(name, first, smaller), context()),
    );
    expect(refused.retriable).toBe(false);
    expect(refused.message).toContain("partitions cannot decrease from 4 to 2");
    await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
    expect((await inspectTopic(admin, name)).partitions).toBe(4);
    // Without a cluster, validation checks the keys only.
    await infra.validateStream(name, smaller, context());
  });

  it("recreates a topic deleted behind its back, even one it had observed", async () => {
    const name = topicName("deleted");
    const request = bindingRequest(name, first, { "apache.kafka": { partitions: 2 } });
    await infra.createStreamBinding(request, context());
    expect((await infra.observeStreamBinding(name, first, context()))?.details?.records).toBe(0);
    const clients = provider.connections.pool.createdCount;
    {
      await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
      await admin.deleteTopics({ topics: [name] });
    }
    await eventually(async () => expect(await infra.observeStreamBinding(name, first, context())).toBeNull());
    // As the registry does once its resync finds the topic gone: create again.
    const recreated = await eventually(() => infra.createStreamBinding(request, context()));
    expect(recreated.message).toContain(`created topic "${name}"`);
    // The shared client never reads offsets (kafkajs would remember the topic in it for good), so a
    // topic deleted elsewhere leaves it working as it was.
    expect(provider.connections.pool.createdCount).toBe(clients);
  });

  it("creates a missing topic on update", async () => {
    const name = topicName("vanished");
    const observation = await infra.updateStreamBinding(
      bindingRequest(name, first, { "apache.kafka": { partitions: 2 } }),
      context(),
    );
    expect(observation.message).toContain(`created topic "${name}"`);
  });
});

describe("validateStream against a cluster", () => {
  it("refuses more replicas than the cluster has brokers", async () => {
    const error = await providerFailure(
      infra.validateStream(
        topicName("wide"),
        { "apache.kafka": { replication: 2 } },
        { ...context(), cluster: first },
      ),
    );
    expect(error.issues).toEqual([
      {
        field: ["apache.kafka", "replication"],
        message: '"replication" 2 is more than the 1 broker(s) of Kafka cluster "/kafka-a"',
      },
    ]);
  });

  it("refuses bad keys before touching the cluster", async () => {
    const error = await providerFailure(
      infra.validateStream(
        "s",
        { "apache.kafka": { partitions: 0, foo: 1 } },
        { ...context(), cluster: first },
      ),
    );
    expect(error.retriable).toBe(false);
    expect(error.issues.map((issue) => issue.field)).toEqual([
      ["apache.kafka", "partitions"],
      ["apache.kafka", "foo"],
    ]);
  });
});

describe("observe and delete", () => {
  it("counts the records produced, across partitions", async () => {
    const name = topicName("records");
    await infra.createStreamBinding(
      bindingRequest(name, first, { "apache.kafka": { partitions: 2 } }),
      context(),
    );
    const producer = kafkaClient(kafka.at(0).bootstrapServers).producer();
    await producer.connect();
    await producer.send({
      topic: name,
      messages: [0, 1, 2, 3, 4, 5, 6].map((i) => ({ partition: i % 2, value: `widget ${i}` })),
    });
    await producer.disconnect();
    const observed = await infra.observeStreamBinding(name, first, context());
    expect(observed?.details).toEqual({ partitions: 2, replicationFactor: 1, configs: {}, records: 7 });
  });

  it("deletes the topic; deleting a missing topic succeeds", async () => {
    const name = topicName("delete");
    await infra.createStreamBinding(bindingRequest(name, first, {}), context());
    await infra.deleteStreamBinding(name, first, context());
    await eventually(async () => expect(await infra.observeStreamBinding(name, first, context())).toBeNull());
    await infra.deleteStreamBinding(name, first, context());
    await infra.deleteStreamBinding(topicName("never"), first, context());
    expect(await infra.observeStreamBinding(topicName("never"), first, context())).toBeNull();
  });

  it("keeps clusters apart: a topic on one is not on the other", async () => {
    const name = topicName("apart");
    await infra.createStreamBinding(
      bindingRequest(name, first, { "apache.kafka": { partitions: 3 } }),
      context(),
    );
    expect(await infra.observeStreamBinding(name, second, context())).toBeNull();
    await infra.createStreamBinding(
      bindingRequest(name, second, { "apache.kafka": { partitions: 1 } }),
      context(),
    );
    expect((await infra.observeStreamBinding(name, first, context()))?.details?.partitions).toBe(3);
    expect((await infra.observeStreamBinding(name, second, context()))?.details?.partitions).toBe(1);
  });
});

describe("connections", () => {
  it("uses one admin client per cluster across calls, and a new one when the config changes", async () => {
    // Earlier tests of this file used both clusters many times, the second always after the first.
    const pool = provider.connections.pool;
    expect(pool.createdCount).toBe(2);
    expect(pool.openCount).toBe(2);
    // Offsets are read on clients of their own, each used by one call at a time, at most 4 per cluster.
    expect(provider.connections.offsets.openCount).toBeGreaterThanOrEqual(1);
    expect(provider.connections.offsets.openCount).toBeLessThanOrEqual(8);

    const probe = await infra.probeCluster(first, context());
    expect(probe).toMatchObject({
      brokerCount: 1,
      details: { consecutiveFailures: 0, controller: expect.any(Number) },
    });
    expect(probe.latencyMs).toBeGreaterThanOrEqual(0);
    expect(pool.createdCount).toBe(2);

    const changed = clusterTarget(kafka.at(0).bootstrapServers, "kafka-a", { "client.id": "registry-2" });
    const disconnectsBefore = counts.disconnects;
    await infra.observeStreamBinding(topicName("none"), changed, context());
    expect(pool.createdCount).toBe(3);
    // The client of the old config is retired: disconnected, as nothing uses it any more.
    await eventually(async () => expect(counts.disconnects).toBe(disconnectsBefore + 1));
    expect(pool.openCount).toBe(2);

    await provider.close();
    expect(pool.openCount).toBe(0);
    expect(provider.connections.offsets.openCount).toBe(0);
    // Every client that connected is disconnected.
    await eventually(async () => expect(counts.disconnects).toBe(counts.connects));
  });
});
