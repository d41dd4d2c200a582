import type { ConfigMaps } from "@stream-registry/core";
import {
  configRejected,
  InfrastructureError,
  ResourceConflictError,
  type BindingObservation,
} from "@stream-registry/provider-api";
import type { Admin } from "kafkajs";
import { desiredTopicOf, type DesiredTopic } from "../config/config-maps.ts";
import type { OffsetsReader, ResolvedCluster } from "../connection/kafka-connections.ts";
import { countRecords, createTopic, describeTopic } from "./topic-admin.ts";
import { topicDifferences, type ActualTopic } from "./topic-state.ts";

/** What the steps of one binding's topic work with: the cluster, its admin and its offsets reader. */
export interface TopicSession {
  admin: Admin;
  offsets: OffsetsReader;
  cluster: ResolvedCluster;
}

/** The desired topic of a binding, or a permanent refusal naming every bad key. */
export function desiredTopic(streamName: string, maps: ConfigMaps): DesiredTopic {
  const { topic, issues } = desiredTopicOf(maps);
  if (issues.length > 0) {
    throw configRejected(
      `stream "${streamName}" has an invalid Kafka config: ${issues.map((issue) => issue.message).join("; ")}`,
      issues,
    );
  }
  return topic;
}

/** What the provider reports of a topic: its shape and, if it could count them, its records. */
export async function observe(
  offsets: OffsetsReader,
  topic: ActualTopic,
  verb: string,
): Promise<BindingObservation> {
  const count = await countRecords(offsets, topic.name);
  const records =
    "records" in count ? `${count.records} record(s)` : `records not counted (${count.unknown})`;
  return {
    message:
      `${verb} topic "${topic.name}": ${topic.partitions} partition(s), replication factor ` +
      `${topic.replicationFactor}, ${records}`,
    details: {
      partitions: topic.partitions,
      replicationFactor: topic.replicationFactor,
      configs: { ...topic.overrides },
      ...("records" in count ? { records: count.records } : {}),
    },
  };
}

/**
 * Creates the topic, or adopts an existing one with the same settings. Creating first (instead of
 * looking first) saves a metadata round trip per create; an existing topic makes it a no-op.
 */
export async function createOrAdopt(
  session: TopicSession,
  name: string,
  desired: DesiredTopic,
): Promise<BindingObservation> {
  const { admin, offsets, cluster } = session;
  const created = await createTopic(admin, name, desired, cluster.settings.requestTimeoutMs);
  if (created) return observe(offsets, created, "created");
  return adopt(session, name, desired);
}

/** A topic of that name exists: adopted if it has the desired settings, refused otherwise. */
export async function adopt(
  { admin, offsets, cluster }: TopicSession,
  name: string,
  desired: DesiredTopic,
): Promise<BindingObservation> {
  const existing = await describeTopic(admin, name);
  if (!existing) {
    throw new InfrastructureError(
      `topic "${name}" on Kafka cluster "${cluster.label}" could not be created: a topic of that name ` +
        `exists but is not visible (it may still be being deleted)`,
      { retriable: true },
    );
  }
  const differences = topicDifferences(desired, existing);
  if (differences.length > 0) {
    throw new ResourceConflictError(
      `topic "${name}" exists on Kafka cluster "${cluster.label}" with different settings: ` +
        `${differences.join("; ")}. An existing topic is adopted only as it is, never altered: ` +
        `align the stream's config with it or delete the topic`,
    );
  }
  return observe(offsets, existing, "adopted existing");
}
