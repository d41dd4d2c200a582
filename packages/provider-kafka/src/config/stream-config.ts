import type { ConfigMap } from "@stream-registry/core";
import type { ConfigIssue } from "@stream-registry/provider-api";
import { boolean, integer, oneOf, parseKeys, text } from "./key-spec.ts";
import type { ParsedValues } from "./key-spec.ts";

export const TOPIC_COMPRESSION_TYPES = ["uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"] as const;
export const CLEANUP_POLICIES = ["delete", "compact", "compact,delete"] as const;

const serde = (side: string) =>
  text({
    description: `How clients (de)serialize the record ${side}, e.g. "string", "avro", "json", "specific"; metadata for clients, not a topic config.`,
    type: "serde name (letters, digits, . _ $ -)",
    check: (value) =>
      /^[A-Za-z0-9._$-]+$/.test(value) ? undefined : 'may hold only letters, digits, ".", "_", "$", "-"',
  });

/** The stream "apache.kafka" keys: the topic's shape and its most used configs. */
export const streamKeys = {
  partitions: integer({
    description: "Number of partitions. Can grow on update, never shrink.",
    min: 1,
    max: 2_147_483_647,
    default: "the broker's num.partitions",
  }),
  replication: integer({
    description: "Replication factor; at most the cluster's broker count. Fixed once the topic exists.",
    min: 1,
    max: 32_767,
    default: "the broker's default.replication.factor",
  }),
  min_isr: integer({
    description: "min.insync.replicas: in-sync replicas an acks=all write needs; at most `replication`.",
    min: 1,
    max: 32_767,
  }),
  compacted: boolean({ description: "true: cleanup.policy=compact; false: cleanup.policy=delete." }),
  "cleanup.policy": oneOf(CLEANUP_POLICIES, {
    description: "cleanup.policy, for delete+compact; give either this or `compacted`.",
    aliases: { "delete,compact": "compact,delete" },
  }),
  compression: oneOf(TOPIC_COMPRESSION_TYPES, {
    description: 'compression.type of the topic ("none" is read as "uncompressed").',
    aliases: { none: "uncompressed" },
  }),
  "unclean.leader.election.enable": boolean({
    description: "Whether an out-of-sync replica may become leader (loses data, keeps availability).",
  }),
  "retention.ms": integer({ description: "How long records are kept; -1: forever.", min: -1 }),
  "retention.bytes": integer({
    description: "Size a partition may grow to before old segments go; -1: no limit.",
    min: -1,
  }),
  "max.message.bytes": integer({
    description: "Largest record batch the topic accepts.",
    min: 0,
    max: 2_147_483_647,
  }),
  "key.serde": serde("key"),
  "value.serde": serde("value"),
};

export type StreamValues = ParsedValues<typeof streamKeys>;

/** Topic configs the typed keys set; the pass-through map may not set them too. */
export const MANAGED_TOPIC_CONFIGS: Readonly<Record<string, string>> = {
  "min.insync.replicas": "min_isr",
  "cleanup.policy": "cleanup.policy (or compacted)",
  "compression.type": "compression",
  "unclean.leader.election.enable": "unclean.leader.election.enable",
  "retention.ms": "retention.ms",
  "retention.bytes": "retention.bytes",
  "max.message.bytes": "max.message.bytes",
};

/** Parses and cross-checks a stream's "apache.kafka" map. */
export function parseStreamConfig(map: ConfigMap): { values: StreamValues; issues: ConfigIssue[] } {
  const { values, issues } = parseKeys(map, streamKeys, 'the stream\'s "apache.kafka" config map');
  const { replication, min_isr: minIsr } = values;
  if (minIsr !== undefined && replication !== undefined && minIsr > replication) {
    issues.push({
      field: ["min_isr"],
      message: `"min_isr" ${minIsr} must be at most "replication" ${replication}: writes with acks=all could never succeed`,
    });
  }
  if (map["compacted"] !== undefined && map["cleanup.policy"] !== undefined) {
    issues.push({
      field: ["cleanup.policy"],
      message: 'give either "compacted" or "cleanup.policy", not both',
    });
  }
  return { values, issues };
}

/** The topic configs the typed keys stand for, as Kafka strings. */
export function topicConfigsOf(values: StreamValues): Record<string, string> {
  const configs: Record<string, string> = {};
  if (values.min_isr !== undefined) configs["min.insync.replicas"] = String(values.min_isr);
  if (values.compacted !== undefined) configs["cleanup.policy"] = values.compacted ? "compact" : "delete";
  if (values["cleanup.policy"] !== undefined) configs["cleanup.policy"] = values["cleanup.policy"];
  if (values.compression !== undefined) configs["compression.type"] = values.compression;
  for (const key of [
    "unclean.leader.election.enable",
    "retention.ms",
    "retention.bytes",
    "max.message.bytes",
  ] as const) {
    if (values[key] !== undefined) configs[key] = String(values[key]);
  }
  return configs;
}
