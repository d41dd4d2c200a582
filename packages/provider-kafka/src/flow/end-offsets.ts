import type { PartitionOffsets } from "@stream-registry/provider-api";
import type { OffsetsReader } from "../connection/kafka-connections.ts";
import { kafkaErrorType } from "../errors/kafka-errors.ts";
import { forEachBounded } from "@stream-registry/core";

/** A topic's offsets per partition, or why they could not be read. */
export type TopicEnds = { partitions: PartitionOffsets[] } | { error: string };

/**
 * Each topic's start and end offsets (two ListOffsets requests a topic, kafkajs' fetchTopicOffsets on
 * the provider's offsets clients), `concurrency` topics at a time. A topic that cannot be read (it was
 * deleted) gets its error; the others are still read.
 */
export async function readTopicEnds(
  read: OffsetsReader,
  topics: readonly string[],
  concurrency: number,
): Promise<Map<string, TopicEnds>> {
  const ends = new Map<string, TopicEnds>();
  await forEachBounded(topics, concurrency, async (topic) => {
    try {
      const offsets = await read(topic);
      const partitions = offsets
        .map(({ partition, low, high }) => ({ partition, start: Number(low), end: Number(high) }))
        .sort((a, b) => a.partition - b.partition);
      ends.set(topic, { partitions });
    } catch (error) {
      const type = kafkaErrorType(error);
      const message =
        type === "UNKNOWN_TOPIC_OR_PARTITION"
          ? `topic "${topic}" does not exist`
          : `the offsets of topic "${topic}" could not be read: ${type ?? (error instanceof Error ? error.message : String(error))}`;
      ends.set(topic, { error: message.slice(0, 300) });
    }
  });
  return ends;
}
