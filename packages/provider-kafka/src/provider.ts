import type { ProviderRuntime, StreamProvider } from "@stream-registry/provider-api";
import { kafkaConfigMaps } from "./config/config-maps.ts";
import { connectWorker } from "./connect/connect-config.ts";
import { createConnectorManager } from "./connect/manager.ts";
import { KafkaConnections, type KafkaConnectionOptions } from "./connection/kafka-connections.ts";
import { createKafkaInfrastructure } from "./kafka-infrastructure.ts";
import { createKafkaFlow } from "./flow/kafka-flow.ts";
import { createConfluentSchemaManager } from "./schema-registry/confluent-schema-manager.ts";
import { schemaRegistryConfigMap } from "./schema-registry/schema-registry-config.ts";

export type KafkaProviderOptions = KafkaConnectionOptions;

/**
 * Makes a generic Kafka provider with connections of its own. Providers that extend it (e.g. an
 * "acme" one) compose its parts: `configMaps`, `infrastructure`, `close`.
 */
export function createKafkaProvider(options: KafkaProviderOptions = {}) {
  const connections = new KafkaConnections(options);
  const provider = {
    kind: "kafka",
    description:
      "Apache Kafka: a binding is a topic named like the stream, managed through kafkajs' admin API",
    configMaps: [...kafkaConfigMaps, schemaRegistryConfigMap, connectWorker.configMap],
    infrastructure: createKafkaInfrastructure(connections),
    /** Clusters whose "schema.registry" map names an external registry; the others use the built-in one. */
    schemas: createConfluentSchemaManager(),
    /** Data in flight (end offsets, consumer groups, lag), read by the registry's background poller. */
    flow: createKafkaFlow(connections),
    /** Stream sources and sinks: connectors of the cluster's Kafka Connect worker ("kafka.connect"). */
    sources: createConnectorManager("source", () => connections.connectPolicy),
    sinks: createConnectorManager("sink", () => connections.connectPolicy),
    /** The provider's admin clients and cluster health, for composition and tests. */
    connections,
    /** Brokers a cluster advertises are connected to only where the registry allows. */
    registryWillStart({ connect }: ProviderRuntime) {
      connections.connectPolicy = connect;
    },
    async close() {
      await connections.close();
    },
  };
  return provider satisfies StreamProvider;
}
