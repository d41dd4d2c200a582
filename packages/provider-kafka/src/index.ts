import { createKafkaProvider } from "./provider.ts";

/** The generic Apache Kafka provider; clusters name it with provider "kafka". */
export const kafkaProvider = createKafkaProvider();

export { createKafkaProvider, type KafkaProviderOptions } from "./provider.ts";
export { createKafkaInfrastructure } from "./kafka-infrastructure.ts";
export {
  kafkaConfigMap,
  kafkaConfigMaps,
  topicPassthroughConfigMap,
  desiredTopicOf,
  type DesiredTopic,
} from "./config/config-maps.ts";
export { clusterKeys, parseClusterConfig, type ClusterSettings } from "./config/cluster-config.ts";
export { kafkaClusterEndpoints } from "./config/cluster-endpoints.ts";
export { streamKeys } from "./config/stream-config.ts";
export { clientKeys } from "./config/client-config.ts";
export { KafkaConnections, type KafkaConnectionOptions } from "./connection/kafka-connections.ts";
export { kafkaClientConfig } from "./connection/kafka-client-config.ts";
export type { KafkaFactory } from "./connection/admin-pool.ts";
export type { KafkaLogLevel, KafkaLogSink } from "./connection/kafka-logging.ts";
export { toInfrastructureError, kafkaErrorType } from "./errors/kafka-errors.ts";
export { connectorPlan } from "./connect/config-rule.ts";
export { typesOf, derivedName } from "./connect/types.ts";
export { createConfluentSchemaManager } from "./schema-registry/confluent-schema-manager.ts";
export {
  schemaRegistryConfigMap,
  schemaRegistryKeys,
  schemaRegistryOf,
  type SchemaRegistrySettings,
} from "./schema-registry/schema-registry-config.ts";
