export { kafkaClient } from "./client.ts";
export { createKafkaCluster, startKafkaCluster, startKafkaClusters } from "./cluster.ts";
export type { KafkaCluster, KafkaClusterOptions, KafkaClusterState } from "./cluster.ts";
export { ensureKafkaJars, kafkaLibDir } from "./jars.ts";
export { sharedKafkaClusters, sharedKafkaSpec } from "./shared.ts";
export type { SharedKafkaCluster, SharedKafkaSpec } from "./shared.ts";
export type { KafkaClusterSecurity, KafkaSecurityProtocol } from "./security.ts";
export { KAFKA_VERSION } from "./version.ts";
