import { setTimeout as sleep } from "node:timers/promises";
import type { Admin } from "kafkajs";
import { ConfigResourceTypes, ConfigSource } from "../kafkajs.ts";
import { kafkaErrorType } from "../errors/kafka-errors.ts";
import type { ActualTopic, DesiredTopic } from "./topic-state.ts";

/** The topic as the cluster reports it, or null when it does not exist. */
export async function describeTopic(admin: Admin, name: string): Promise<ActualTopic | null> {
  let partitions;
  try {
    const metadata = await admin.fetchTopicMetadata({ topics: [name] });
    partitions = metadata.topics.find((topic) => topic.name === name)?.partitions;
  } catch (error) {
    if (kafkaErrorType(error) === "UNKNOWN_TOPIC_OR_PARTITION") return null;
    throw error;
  }
  if (!partitions || partitions.length === 0) return null;
  const { resources } = await admin.describeConfigs({
    resources: [{ type: ConfigResourceTypes.TOPIC, name }],
    includeSynonyms: false,
  });
  const entries = resources.find((resource) => resource.resourceName === name)?.configEntries ?? [];
  const configs: Record<string, string | null> = {};
  const overrides: Record<string, string> = {};
  for (const entry of entries) {
    configs[entry.configName] = entry.configValue;
    if (entry.configSource === ConfigSource.TOPIC_CONFIG && entry.configValue !== null) {
      overrides[entry.configName] = entry.configValue;
    }
  }
  return {
    name,
    partitions: partitions.length,
    replicationFactor: Math.max(...partitions.map((partition) => partition.replicas.length)),
    configs,
    overrides,
  };
}

/** Creates the topic; false when it already existed (another attempt or another tool made it). */
export async function createTopic(admin: Admin, name: string, desired: DesiredTopic, timeoutMs: number) {
  return admin.createTopics({
    topics: [
      {
        topic: name,
        // -1 leaves the choice to the broker's num.partitions / default.replication.factor.
        numPartitions: desired.partitions ?? -1,
        replicationFactor: desired.replicationFactor ?? -1,
        configEntries: Object.entries(desired.configs).map(([configName, value]) => ({
          name: configName,
          value,
        })),
      },
    ],
    waitForLeaders: true,
    timeout: timeoutMs,
  });
}

/** Writes the topic's whole set of dynamic overrides (alterConfigs replaces, it does not merge). */
export async function writeTopicOverrides(admin: Admin, name: string, overrides: Record<string, string>) {
  await admin.alterConfigs({
    validateOnly: false,
    resources: [
      {
        type: ConfigResourceTypes.TOPIC,
        name,
        configEntries: Object.entries(overrides).map(([configName, value]) => ({ name: configName, value })),
      },
    ],
  });
}

/**
 * Adds partitions and waits until each has a leader, as createTopics' waitForLeaders does: until
 * then the broker answers NOT_LEADER_OR_FOLLOWER for the new partitions.
 */
export async function growPartitions(admin: Admin, name: string, count: number, timeoutMs: number) {
  await admin.createPartitions({ topicPartitions: [{ topic: name, count }], timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { topics } = await admin.fetchTopicMetadata({ topics: [name] });
    const partitions = topics[0]?.partitions ?? [];
    const led = partitions.filter((partition) => partition.leader >= 0 && partition.partitionErrorCode === 0);
    if (led.length >= count || Date.now() > deadline) return;
    await sleep(100);
  }
}

/** Leadership moves (a new partition, a broker restart) are answered with these for a moment. */
const LEADERSHIP_IN_MOTION = new Set([
  "NOT_LEADER_FOR_PARTITION",
  "NOT_LEADER_OR_FOLLOWER",
  "LEADER_NOT_AVAILABLE",
]);

/** Records in the topic now: the sum over partitions of high watermark minus log start. */
export async function countRecords(admin: Admin, name: string): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const offsets = await admin.fetchTopicOffsets(name);
      return offsets.reduce((sum, { high, low }) => sum + (Number(high) - Number(low)), 0);
    } catch (error) {
      if (attempt >= 5 || !LEADERSHIP_IN_MOTION.has(kafkaErrorType(error) ?? "")) throw error;
      await sleep(100 * attempt);
    }
  }
}

/** Deletes the topic; true when it was there. */
export async function deleteTopic(admin: Admin, name: string, timeoutMs: number): Promise<boolean> {
  try {
    await admin.deleteTopics({ topics: [name], timeout: timeoutMs });
    return true;
  } catch (error) {
    if (kafkaErrorType(error) === "UNKNOWN_TOPIC_OR_PARTITION") return false;
    throw error;
  }
}
