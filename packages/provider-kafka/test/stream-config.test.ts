import { describe, expect, it } from "vitest";
import { seedWidgetsStream } from "@stream-registry/testkit";
import { desiredTopicOf, kafkaConfigMap, streamKeys, topicPassthroughConfigMap } from "../src/index.ts";

const stream = (map: Record<string, string | number | boolean>) => kafkaConfigMap.validate(map, "stream");

describe("stream apache.kafka config", () => {
  it("turns the seed's CREATE STREAM example into a topic", () => {
    const { topic, issues } = desiredTopicOf(seedWidgetsStream.config);
    expect(issues).toEqual([]);
    expect(topic).toEqual({
      partitions: 10,
      replicationFactor: 4,
      configs: {
        "min.insync.replicas": "2",
        "cleanup.policy": "compact",
        "compression.type": "snappy",
        "unclean.leader.election.enable": "false",
      },
    });
  });

  it("checks every key's type and range", () => {
    const issues = stream({
      partitions: 0,
      replication: "three",
      compacted: "yes",
      compression: "brotli",
      "retention.ms": -2,
      "key.serde": "",
    });
    expect(issues.map((issue) => [issue.field[0], issue.message])).toEqual([
      ["partitions", '"partitions" must be at least 1, got 0'],
      ["replication", '"replication" must be an integer, got "three"'],
      ["compacted", '"compacted" must be true or false, got "yes"'],
      [
        "compression",
        '"compression" must be one of "uncompressed", "zstd", "lz4", "snappy", "gzip", "producer", got "brotli"',
      ],
      ["retention.ms", '"retention.ms" must be at least -1, got -2'],
      ["key.serde", '"key.serde" must not be empty'],
    ]);
    expect(stream({ partitions: 2.5 })[0]?.message).toBe('"partitions" must be an integer, got 2.5');
    expect(stream({ replication: 40_000 })[0]?.message).toBe(
      '"replication" must be at most 32767, got 40000',
    );
  });

  it("accepts numbers as strings and booleans as strings in any case", () => {
    const { topic, issues } = desiredTopicOf({
      "apache.kafka": {
        partitions: "6",
        compacted: "FALSE",
        "unclean.leader.election.enable": true,
        compression: "none",
      },
    });
    expect(issues).toEqual([]);
    expect(topic).toEqual({
      partitions: 6,
      configs: {
        "cleanup.policy": "delete",
        "unclean.leader.election.enable": "true",
        "compression.type": "uncompressed",
      },
    });
  });

  it("refuses min_isr above replication, and compacted together with cleanup.policy", () => {
    expect(stream({ replication: 2, min_isr: 3 })).toEqual([
      {
        field: ["min_isr"],
        message: '"min_isr" 3 must be at most "replication" 2: writes with acks=all could never succeed',
      },
    ]);
    expect(stream({ compacted: true, "cleanup.policy": "delete" })[0]?.message).toBe(
      'give either "compacted" or "cleanup.policy", not both',
    );
  });

  it("refuses an unknown key, naming it and listing the known ones", () => {
    const [issue] = stream({ partition: 3 });
    expect(issue?.field).toEqual(["partition"]);
    expect(issue?.message).toContain('unknown key "partition" in the stream\'s "apache.kafka" config map');
    for (const known of Object.keys(streamKeys)) expect(issue?.message).toContain(known);
  });

  it("puts issues of both maps under their map's name", () => {
    const { issues } = desiredTopicOf({
      "apache.kafka": { partitions: -1 },
      "apache.kafka.topic": { "Bad Key": "x" },
    });
    expect(issues.map((issue) => issue.field)).toEqual([
      ["apache.kafka", "partitions"],
      ["apache.kafka.topic", "Bad Key"],
    ]);
  });
});

describe("apache.kafka.topic pass-through", () => {
  it("passes raw topic configs as strings, typed keys winning nothing they do not set", () => {
    const { topic, issues } = desiredTopicOf({
      "apache.kafka": { "retention.ms": 60_000 },
      "apache.kafka.topic": {
        "message.timestamp.type": "LogAppendTime",
        "segment.bytes": 1048576,
        preallocate: true,
      },
    });
    expect(issues).toEqual([]);
    expect(topic.configs).toEqual({
      "message.timestamp.type": "LogAppendTime",
      "segment.bytes": "1048576",
      preallocate: "true",
      "retention.ms": "60000",
    });
  });

  it("knows Kafka's topic configs, and sends typed configs back to their typed key", () => {
    const issues = topicPassthroughConfigMap.validate(
      {
        "Segment.Bytes": 1,
        "min.insync.replicas": 2,
        "segment.msec": 1,
        "flush.ms": " ",
        "flush.messages": 10,
      },
      "stream",
    );
    expect(issues.map((issue) => [issue.field[0], issue.message])).toEqual([
      ["Segment.Bytes", expect.stringContaining('unknown key "Segment.Bytes" in "apache.kafka.topic"')],
      [
        "min.insync.replicas",
        '"min.insync.replicas" is set through the "apache.kafka" key min_isr; remove it here',
      ],
      [
        "segment.msec",
        expect.stringContaining("not a Kafka topic config; known keys: compression.gzip.level,"),
      ],
      ["flush.ms", '"flush.ms" must not be empty'],
    ]);
  });

  it("belongs in stream configs only", () => {
    expect(topicPassthroughConfigMap.validate({ "segment.ms": 1 }, "producer")).toEqual([
      {
        field: [],
        message: expect.stringContaining(
          "belongs in a stream's or binding's config, not in a producer config",
        ),
      },
    ]);
  });
});

describe("producer and consumer apache.kafka config", () => {
  it("accepts the seed's producer and consumer examples", () => {
    const seed = { acks: "all", retries: 0, "enable.idempotence": "false" };
    expect(kafkaConfigMap.validate(seed, "producer")).toEqual([]);
    expect(kafkaConfigMap.validate(seed, "consumer")).toEqual([]);
    expect(
      kafkaConfigMap.validate(
        { "group.id": "g", "auto.offset.reset": "earliest", "max.poll.records": "500" },
        "consumer",
      ),
    ).toEqual([]);
  });

  it("type-checks client keys and refuses unknown ones", () => {
    const issues = kafkaConfigMap.validate(
      { acks: "most", "linger.ms": -1, "auto.offset.reset": "start", "enable.idempotence": 1, lingerms: 5 },
      "producer",
    );
    expect(issues.map((issue) => issue.field[0])).toEqual([
      "acks",
      "linger.ms",
      "auto.offset.reset",
      "enable.idempotence",
      "lingerms",
    ]);
    expect(issues[4]?.message).toContain('unknown key "lingerms" in the producer "apache.kafka" config map');
    expect(kafkaConfigMap.validate({ acks: -1 }, "producer")).toEqual([]);
  });
});
