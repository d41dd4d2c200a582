export { kafkaClient } from "./client.ts";
export { createKafkaCluster, startKafkaCluster, startKafkaClusters } from "./cluster.ts";
export type { KafkaCluster, KafkaClusterOptions, KafkaClusterState } from "./cluster.ts";
export { ensureKafkaJars, kafkaLibDir } from "./jars.ts";
export { sharedKafkaClusters, sharedKafkaSpec } from "./shared.ts";
export type { SharedKafkaCluster, SharedKafkaSpec } from "./shared.ts";
export type { KafkaClusterSecurity, KafkaSecurityProtocol } from "./security.ts";
export { KAFKA_VERSION } from "./version.ts";
export { CONNECT_VERSION } from "./version.ts";
export { createConnectWorker, startConnectWorker } from "./connect-worker.ts";
export type { ConnectWorker, ConnectWorkerOptions, ConnectWorkerState } from "./connect-worker.ts";
export { connectLibDir, ensureConnectJars, ensureConnectPlugin } from "./connect-jars.ts";
export type { ConnectPlugin } from "./connect-jars.ts";
export { ensureThirdPartyPlugins, thirdPartyPluginFolders } from "./plugins.ts";
export {
  connectorClasses,
  debeziumJdbcSinkConfig,
  debeziumJdbcWrite,
  debeziumPostgresCapture,
  debeziumPostgresSourceConfig,
  fileSinkConfig,
  fileSourceConfig,
} from "./connector-configs.ts";
export type {
  ConnectorConfig,
  DebeziumJdbcSink,
  DebeziumPostgresSource,
  PostgresEndpoint,
} from "./connector-configs.ts";
