import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { OffsetsReader, TopicOffsets } from "../src/connection/kafka-connections.ts";
import { countRecords } from "../src/topic/topic-admin.ts";

// kafkajs' own protocol error, as its broker-code table builds it (code 3: UNKNOWN_TOPIC_OR_PARTITION).
const load = createRequire(import.meta.url);
const { KafkaJSProtocolError } = load("kafkajs/src/errors") as {
  KafkaJSProtocolError: new (e: Error) => Error;
};
const { createErrorFromCode } = load("kafkajs/src/protocol/error") as {
  createErrorFromCode(code: number): Error;
};

const offsets: TopicOffsets = [
  { partition: 0, offset: "10", high: "10", low: "4" },
  { partition: 1, offset: "3", high: "3", low: "0" },
];

/** A reader that throws each of `failures` in turn, then answers `offsets`. */
function reader(...failures: unknown[]): OffsetsReader & { calls: number } {
  const read = Object.assign(
    async () => {
      read.calls += 1;
      if (failures.length > 0) throw failures.shift();
      return offsets;
    },
    { calls: 0 },
  );
  return read;
}

describe("countRecords", () => {
  it("sums high watermark minus log start over the partitions", async () => {
    expect(await countRecords(reader(), "t")).toEqual({ records: 9 });
  });

  it("tries again after kafkajs' TypeError on a topic its metadata does not hold yet", async () => {
    const read = reader(
      new TypeError("Cannot destructure property 'partitions' of 'low.pop(...)' as it is undefined."),
      new KafkaJSProtocolError(createErrorFromCode(3)),
    );
    expect(await countRecords(read, "t")).toEqual({ records: 9 });
    expect(read.calls).toBe(3);
  });

  it("does not retry a lost connection, and reports the count unknown", async () => {
    const { KafkaJSConnectionError } = load("kafkajs/src/errors") as {
      KafkaJSConnectionError: new (message: string) => Error;
    };
    const read = reader(new KafkaJSConnectionError("Connection error: connect ECONNREFUSED 127.0.0.1:1"));
    expect(await countRecords(read, "t")).toEqual({
      unknown: "Connection error: connect ECONNREFUSED 127.0.0.1:1",
    });
    expect(read.calls).toBe(1);
  });

  it("reports the count unknown, with why, instead of failing the observation", async () => {
    const bug = () => new TypeError("Cannot destructure property 'partitions' of 'high.pop(...)'");
    const read = reader(bug(), bug(), bug(), bug(), bug());
    expect(await countRecords(read, "t")).toEqual({
      unknown: "Cannot destructure property 'partitions' of 'high.pop(...)'",
    });
    expect(read.calls).toBe(4);
  });
});
