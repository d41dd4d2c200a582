import type { ConfigMap, ConfigMaps } from "@stream-registry/core";
import type { ConfigIssue, ConfigMapDefinition, ConfigScope } from "@stream-registry/provider-api";
import { parseClusterConfig } from "./cluster-config.ts";
import { clientKeys } from "./client-config.ts";
import { parseKeys } from "./key-spec.ts";
import { parseStreamConfig, topicConfigsOf } from "./stream-config.ts";
import { checkTopicPassthrough, passthroughConfigs } from "./topic-passthrough.ts";

export const KAFKA_MAP = "apache.kafka";
export const TOPIC_PASSTHROUGH_MAP = "apache.kafka.topic";

function validateKafkaMap(map: ConfigMap, scope: ConfigScope): ConfigIssue[] {
  switch (scope) {
    case "cluster":
      return parseClusterConfig(map).issues;
    case "stream":
      return parseStreamConfig(map).issues;
    case "producer":
    case "consumer":
      return parseKeys(map, clientKeys, `the ${scope} "apache.kafka" config map`).issues;
  }
}

/** "apache.kafka": connection settings on clusters, topic settings on streams, client settings on producers/consumers. */
export const kafkaConfigMap = {
  name: KAFKA_MAP,
  description:
    "Apache Kafka settings: on a cluster how to connect (bootstrap.servers, security); on a stream the " +
    "topic (partitions, replication, min_isr, compacted, ...); on producer/consumer configs common client settings",
  requiredIn: ["cluster"],
  validate: validateKafkaMap,
} satisfies ConfigMapDefinition;

/** "apache.kafka.topic": raw Kafka topic configs, passed through as they are (config maps are flat). */
export const topicPassthroughConfigMap = {
  name: TOPIC_PASSTHROUGH_MAP,
  description: 'raw Kafka topic configs (e.g. "message.timestamp.type"), applied to the topic as they are',
  validate(map: ConfigMap, scope: ConfigScope): ConfigIssue[] {
    if (scope !== "stream") {
      return [
        {
          field: [],
          message: `config map "${TOPIC_PASSTHROUGH_MAP}" holds topic configs and belongs in a stream's or binding's config, not in a ${scope} config`,
        },
      ];
    }
    return checkTopicPassthrough(map);
  },
} satisfies ConfigMapDefinition;

export const kafkaConfigMaps: readonly ConfigMapDefinition[] = [kafkaConfigMap, topicPassthroughConfigMap];

/** The topic a stream's config maps ask for; absent partitions/replication mean the broker's defaults. */
export interface DesiredTopic {
  partitions?: number;
  replicationFactor?: number;
  configs: Record<string, string>;
}

/**
 * Validates a stream's Kafka maps and derives the topic they describe. Issues carry the map name in
 * their field path, e.g. ["apache.kafka", "partitions"].
 */
export function desiredTopicOf(maps: ConfigMaps): { topic: DesiredTopic; issues: ConfigIssue[] } {
  const kafka = maps[KAFKA_MAP] ?? {};
  const passthrough = maps[TOPIC_PASSTHROUGH_MAP];
  const { values, issues } = parseStreamConfig(kafka);
  const all = [
    ...issues.map((issue) => ({ ...issue, field: [KAFKA_MAP, ...issue.field] })),
    ...(passthrough ? checkTopicPassthrough(passthrough) : []).map((issue) => ({
      ...issue,
      field: [TOPIC_PASSTHROUGH_MAP, ...issue.field],
    })),
  ];
  const topic: DesiredTopic = { configs: { ...passthroughConfigs(passthrough), ...topicConfigsOf(values) } };
  if (values.partitions !== undefined) topic.partitions = values.partitions;
  if (values.replication !== undefined) topic.replicationFactor = values.replication;
  return { topic, issues: all };
}

/** The cluster's connection settings, or a list of issues with field paths inside the maps. */
export function clusterSettingsOf(maps: ConfigMaps) {
  const map = maps[KAFKA_MAP];
  if (map === undefined) {
    return {
      issues: [
        { field: [KAFKA_MAP], message: `config map "${KAFKA_MAP}" with "bootstrap.servers" is required` },
      ],
    };
  }
  const { settings, issues } = parseClusterConfig(map);
  return { settings, issues: issues.map((issue) => ({ ...issue, field: [KAFKA_MAP, ...issue.field] })) };
}
