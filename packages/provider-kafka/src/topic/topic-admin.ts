import { setTimeout as sleep } from "node:timers/promises";
import { InfrastructureError } from "@stream-registry/provider-api";
import type { Admin, PartitionMetadata } from "kafkajs";
import { ConfigResourceTypes, ConfigSource, KafkaJSAggregateError } from "../kafkajs.ts";
import type { OffsetsReader } from "../connection/kafka-connections.ts";
import { isConnectionError, kafkaErrorType } from "../errors/kafka-errors.ts";
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
  return topicOf(admin, name, partitions);
}

/** The topic with the given partitions, its configs read from the cluster. */
async function topicOf(admin: Admin, name: string, partitions: PartitionMetadata[]): Promise<ActualTopic> {
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

/**
 * Creates the topic and waits until each partition has a leader: the created topic, or null when a
 * topic of that name already exists (another attempt or another tool made it, or it is still being
 * deleted). kafkajs' own wait for leaders is not used: it gives up on UNKNOWN_TOPIC_OR_PARTITION,
 * which a broker answers for a topic its metadata does not know yet, common under concurrent
 * creates, so it would fail a create that succeeded.
 */
export async function createTopic(
  admin: Admin,
  name: string,
  desired: DesiredTopic,
  timeoutMs: number,
): Promise<ActualTopic | null> {
  const { existing, refused } = await createTopics(admin, [{ name, desired }], timeoutMs);
  if (refused.has(name)) throw refused.get(name);
  return existing.has(name) ? null : createdTopic(admin, name, desired, timeoutMs);
}

/**
 * Sends one CreateTopics request for all of `topics` and does not wait for leaders. Says which
 * topics existed already and the error of each the broker refused, by name; the others were
 * created. A failure of the whole request (the cluster unreachable) is thrown.
 */
export async function createTopics(
  admin: Admin,
  topics: readonly { name: string; desired: DesiredTopic }[],
  timeoutMs: number,
): Promise<{ existing: Set<string>; refused: Map<string, unknown> }> {
  const existing = new Set<string>();
  const refused = new Map<string, unknown>();
  try {
    const created = await admin.createTopics({
      topics: topics.map(({ name, desired }) => ({
        topic: name,
        // -1 leaves the choice to the broker's num.partitions / default.replication.factor.
        numPartitions: desired.partitions ?? -1,
        replicationFactor: desired.replicationFactor ?? -1,
        configEntries: Object.entries(desired.configs).map(([configName, value]) => ({
          name: configName,
          value,
        })),
      })),
      waitForLeaders: false,
      timeout: timeoutMs,
    });
    // false: every topic exists already (kafkajs folds that answer into a boolean).
    if (!created) for (const { name } of topics) existing.add(name);
  } catch (error) {
    const perTopic = error instanceof KafkaJSAggregateError ? error.errors : [];
    const named = perTopic.filter(
      (e): e is Error & { topic: string } => typeof (e as { topic?: unknown }).topic === "string",
    );
    if (named.length === 0 || named.length !== perTopic.length) throw error;
    for (const topicError of named) {
      if (kafkaErrorType(topicError) === "TOPIC_ALREADY_EXISTS") existing.add(topicError.topic);
      else refused.set(topicError.topic, topicError);
    }
  }
  return { existing, refused };
}

/** A topic this registry just created: once each partition has a leader, as it was asked for. */
export async function createdTopic(
  admin: Admin,
  name: string,
  desired: DesiredTopic,
  timeoutMs: number,
): Promise<ActualTopic> {
  const partitions = await waitForLeaders(admin, name, desired.partitions ?? 1, timeoutMs);
  if (partitions) {
    // The broker took exactly these overrides with the create; reading them back would cost a
    // request per create for nothing (observations read them from the cluster).
    const overrides = { ...desired.configs };
    return {
      name,
      partitions: partitions.length,
      replicationFactor: Math.max(...partitions.map((partition) => partition.replicas.length)),
      configs: { ...overrides },
      overrides,
    };
  }
  const topic = await retryWhileUnknown(() => describeTopic(admin, name));
  if (!topic) {
    throw new InfrastructureError(`topic "${name}" was created but is not visible yet`, { retriable: true });
  }
  return topic;
}

/** A topic created a moment ago may be unknown for a moment to the broker that answers. */
async function retryWhileUnknown<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= 5 || kafkaErrorType(error) !== "UNKNOWN_TOPIC_OR_PARTITION") throw error;
      await sleep(50 * attempt);
    }
  }
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

/** Adds partitions and waits until each has a leader: until then the broker refuses them. */
export async function growPartitions(admin: Admin, name: string, count: number, timeoutMs: number) {
  await admin.createPartitions({ topicPartitions: [{ topic: name, count }], timeout: timeoutMs });
  await waitForLeaders(admin, name, count, timeoutMs);
}

/** What a broker answers for a topic or partition whose creation has not reached its metadata yet. */
const NOT_YET = new Set(["UNKNOWN_TOPIC_OR_PARTITION", "LEADER_NOT_AVAILABLE"]);

/**
 * Polls the topic's metadata until it shows at least `count` partitions, each with a leader, and
 * returns them. Past `timeoutMs` it stops waiting without failing (undefined): the topic exists, and
 * clients find its leaders once they are elected.
 */
export async function waitForLeaders(
  admin: Admin,
  name: string,
  count: number,
  timeoutMs: number,
): Promise<PartitionMetadata[] | undefined> {
  const deadline = Date.now() + timeoutMs;
  const led = (partition: PartitionMetadata) => partition.leader >= 0 && partition.partitionErrorCode === 0;
  for (let delayMs = 10; ; delayMs = Math.min(delayMs * 2, 200)) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [name] });
      const partitions = topics.find((topic) => topic.name === name)?.partitions ?? [];
      if (partitions.length >= count && partitions.every(led)) return partitions;
    } catch (error) {
      if (!NOT_YET.has(kafkaErrorType(error) ?? "")) throw error;
    }
    if (Date.now() + delayMs > deadline) return undefined;
    await sleep(delayMs);
  }
}

/** Leadership moves (a new partition, a broker restart) are answered with these for a moment. */
const LEADERSHIP_IN_MOTION = new Set([
  "NOT_LEADER_FOR_PARTITION",
  "NOT_LEADER_OR_FOLLOWER",
  "LEADER_NOT_AVAILABLE",
  // The client reading offsets does not know a topic created a moment ago yet.
  "UNKNOWN_TOPIC_OR_PARTITION",
]);

const RECORD_COUNT_ATTEMPTS = 4;

/**
 * Records in the topic now: the sum over partitions of high watermark minus log start. The count is
 * a detail of an observation, so it never fails one: after a few quick tries it is reported unknown
 * (with why), and the registry's next resync counts again.
 */
export async function countRecords(
  readOffsets: OffsetsReader,
  name: string,
): Promise<{ records: number } | { unknown: string }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const offsets = await readOffsets(name);
      if (offsets.length === 0) throw new Error("no partitions known yet");
      return { records: offsets.reduce((sum, { high, low }) => sum + (Number(high) - Number(low)), 0) };
    } catch (error) {
      const type = kafkaErrorType(error);
      const transient = type === undefined ? !isConnectionError(error) : LEADERSHIP_IN_MOTION.has(type);
      if (attempt >= RECORD_COUNT_ATTEMPTS || !transient) {
        return { unknown: (type ?? (error instanceof Error ? error.message : String(error))).slice(0, 200) };
      }
      await sleep(50 * attempt);
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

/** Deletes existing topics with one DeleteTopics request; throws if any is refused or gone. */
export async function deleteTopics(admin: Admin, names: readonly string[], timeoutMs: number): Promise<void> {
  await admin.deleteTopics({ topics: [...names], timeout: timeoutMs });
}
