import type { ConfigMap, ConfigValue } from "@stream-registry/core";
import type { ConfigIssue } from "@stream-registry/provider-api";
import { MANAGED_TOPIC_CONFIGS } from "./stream-config.ts";

/**
 * The topic configs of Apache Kafka 4.4 (what DescribeConfigs reports for a topic), besides those the
 * typed "apache.kafka" keys set. A test compares this list with a real broker's.
 */
export const PASSTHROUGH_TOPIC_CONFIGS: readonly string[] = [
  "compression.gzip.level",
  "compression.lz4.level",
  "compression.zstd.level",
  "delete.retention.ms",
  "errors.deadletterqueue.group.enable",
  "file.delete.delay.ms",
  "flush.messages",
  "flush.ms",
  "follower.replication.throttled.replicas",
  "index.interval.bytes",
  "leader.replication.throttled.replicas",
  "local.retention.bytes",
  "local.retention.ms",
  "max.compaction.lag.ms",
  "max.decompressed.message.bytes",
  "message.timestamp.after.max.ms",
  "message.timestamp.before.max.ms",
  "message.timestamp.type",
  "min.cleanable.dirty.ratio",
  "min.compaction.lag.ms",
  "preallocate",
  "remote.copy.lag.bytes",
  "remote.copy.lag.ms",
  "remote.log.copy.disable",
  "remote.log.delete.on.disable",
  "remote.storage.enable",
  "segment.bytes",
  "segment.index.bytes",
  "segment.jitter.ms",
  "segment.ms",
];

/**
 * Checks the "apache.kafka.topic" pass-through map: Kafka topic configs sent as they are. Names are
 * checked against Kafka's topic configs so a typo is refused at validation rather than failing the
 * binding later; values are the broker's to judge (a bad one is INVALID_CONFIG, a permanent failure).
 */
export function checkTopicPassthrough(map: ConfigMap): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [key, value] of Object.entries(map)) {
    const typed = Object.hasOwn(MANAGED_TOPIC_CONFIGS, key) ? MANAGED_TOPIC_CONFIGS[key] : undefined;
    if (typed !== undefined) {
      issues.push({
        field: [key],
        message: `${JSON.stringify(key)} is set through the "apache.kafka" key ${typed}; remove it here`,
      });
    } else if (!PASSTHROUGH_TOPIC_CONFIGS.includes(key)) {
      issues.push({
        field: [key],
        message:
          `unknown key ${JSON.stringify(key)} in "apache.kafka.topic": not a Kafka topic config; ` +
          `known keys: ${PASSTHROUGH_TOPIC_CONFIGS.join(", ")}`,
      });
    } else if (typeof value === "string" && value.trim() === "") {
      issues.push({ field: [key], message: `${JSON.stringify(key)} must not be empty` });
    }
  }
  return issues;
}

/** Kafka reads every topic config as a string. */
export function topicConfigValue(value: ConfigValue): string {
  return typeof value === "string" ? value : String(value);
}

export function passthroughConfigs(map: ConfigMap | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, topicConfigValue(value)]));
}
