import { Kafka, logLevel } from "kafkajs";
import type { KafkaConfig } from "kafkajs";

/** A kafkajs client for a test cluster; silent, because tests assert and the broker log explains. */
export function kafkaClient(bootstrapServers: string, config: Partial<KafkaConfig> = {}): Kafka {
  return new Kafka({
    clientId: "stream-registry-testkit",
    brokers: bootstrapServers.split(","),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3_000,
    ...config,
  });
}
