import type { DesiredTopic } from "../config/config-maps.ts";

export type { DesiredTopic };

/** A topic as the cluster reports it. */
export interface ActualTopic {
  name: string;
  partitions: number;
  replicationFactor: number;
  /** The effective value of every config the broker reports (override or default). */
  configs: Record<string, string | null>;
  /** The topic-level dynamic overrides only: what alterConfigs replaces as a whole. */
  overrides: Record<string, string>;
}

/** Config values compare as Kafka reads them: list order ("compact,delete") does not matter. */
export function sameConfigValue(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === b) return true;
  if (a == null || b == null) return false;
  const normalize = (value: string) =>
    value
      .split(",")
      .map((item) => item.trim())
      .sort()
      .join(",");
  return normalize(a) === normalize(b);
}

/**
 * What an existing topic has that the desired one does not, e.g. "partitions 3 (wanted 10)". Only the
 * settings the stream declares are compared: what it leaves out is the broker's business.
 */
export function topicDifferences(desired: DesiredTopic, actual: ActualTopic): string[] {
  const differences: string[] = [];
  if (desired.partitions !== undefined && desired.partitions !== actual.partitions) {
    differences.push(`partitions ${actual.partitions} (wanted ${desired.partitions})`);
  }
  if (desired.replicationFactor !== undefined && desired.replicationFactor !== actual.replicationFactor) {
    differences.push(`replication factor ${actual.replicationFactor} (wanted ${desired.replicationFactor})`);
  }
  for (const [name, wanted] of Object.entries(desired.configs)) {
    const value = Object.hasOwn(actual.configs, name) ? actual.configs[name] : undefined;
    if (!sameConfigValue(value, wanted)) {
      const shown = value === undefined ? "unset" : value === null ? "(hidden)" : value;
      differences.push(`${name} ${shown} (wanted ${wanted})`);
    }
  }
  return differences;
}

/** What bringing an existing topic to the desired one takes. */
export interface TopicUpdatePlan {
  /** The new partition count, when it grows. */
  partitions?: number;
  /** The full set of topic overrides to write, when any differs; undefined when nothing changes. */
  overrides?: Record<string, string>;
  /** Configs whose value changes, for the observation message. */
  changedConfigs: string[];
  /** Why the update cannot be done (a shrink, a replication change): bad input, never retried. */
  refusals: string[];
}

/**
 * Plans an update. kafkajs alterConfigs REPLACES the topic's whole set of dynamic overrides, so the
 * plan starts from the current overrides and lays the desired configs over them: overrides set by
 * others (or earlier, through keys the stream no longer names) are kept.
 */
export function planTopicUpdate(desired: DesiredTopic, actual: ActualTopic): TopicUpdatePlan {
  const plan: TopicUpdatePlan = { changedConfigs: [], refusals: [] };
  if (desired.partitions !== undefined) {
    if (desired.partitions < actual.partitions) {
      plan.refusals.push(
        `partitions cannot decrease from ${actual.partitions} to ${desired.partitions}: Kafka cannot remove partitions ` +
          `(recreate the stream under a new name to shrink it)`,
      );
    } else if (desired.partitions > actual.partitions) {
      plan.partitions = desired.partitions;
    }
  }
  if (desired.replicationFactor !== undefined && desired.replicationFactor !== actual.replicationFactor) {
    plan.refusals.push(
      `replication factor cannot change from ${actual.replicationFactor} to ${desired.replicationFactor}: ` +
        `that needs a partition reassignment, which this provider does not do (use kafka-reassign-partitions)`,
    );
  }
  const merged = { ...actual.overrides };
  for (const [name, wanted] of Object.entries(desired.configs)) {
    const override = Object.hasOwn(actual.overrides, name) ? actual.overrides[name] : undefined;
    // A wanted value equal to today's broker default is still written, as create does: the topic
    // keeps it when the broker's default changes.
    if (sameConfigValue(override, wanted)) continue;
    merged[name] = wanted;
    plan.changedConfigs.push(`${name}=${wanted}`);
  }
  if (plan.changedConfigs.length > 0) plan.overrides = merged;
  return plan;
}
