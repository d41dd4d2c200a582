import { log4j2Properties } from "./config.ts";

/** Settings of one single-node distributed Connect worker. */
export interface WorkerSettings {
  bootstrapServers: string;
  /** The worker group; the internal topics are named after it, so workers on shared brokers never meet. */
  groupId: string;
  port: number;
  /** Folder holding one folder per third-party plugin (`plugin.path`). */
  pluginPath: string;
}

/**
 * connect-distributed.properties for a single node on a small machine: internal topics with one
 * replica and few partitions, no scheduled rebalance delay (the default 5 minutes leaves a restarted
 * worker's tasks unassigned), plugins found through their ServiceLoader manifests only, short
 * sessions so a worker killed with SIGKILL is replaced in seconds, the REST API on loopback.
 */
export function workerProperties({ bootstrapServers, groupId, port, pluginPath }: WorkerSettings): string {
  const settings: Record<string, string | number> = {
    "bootstrap.servers": bootstrapServers,
    "group.id": groupId,
    "config.storage.topic": `${groupId}-configs`,
    "offset.storage.topic": `${groupId}-offsets`,
    "status.storage.topic": `${groupId}-status`,
    "config.storage.replication.factor": 1,
    "offset.storage.replication.factor": 1,
    "status.storage.replication.factor": 1,
    "offset.storage.partitions": 2,
    "status.storage.partitions": 1,
    "offset.flush.interval.ms": 1000,
    "scheduled.rebalance.max.delay.ms": 0,
    "session.timeout.ms": 6000,
    "heartbeat.interval.ms": 2000,
    "consumer.session.timeout.ms": 6000,
    "consumer.heartbeat.interval.ms": 2000,
    "key.converter": "org.apache.kafka.connect.json.JsonConverter",
    "value.converter": "org.apache.kafka.connect.json.JsonConverter",
    listeners: `http://127.0.0.1:${port}`,
    "rest.advertised.host.name": "127.0.0.1",
    "rest.advertised.port": port,
    "plugin.path": pluginPath,
    "plugin.discovery": "service_load",
  };
  return Object.entries(settings)
    .map(([key, value]) => `${key}=${value}`)
    .join("\n")
    .concat("\n");
}

/** The brokers' log4j2 configuration, with the worker's per-client config dumps turned down. */
export const connectLog4j2Properties = `${log4j2Properties}logger.clients.name = org.apache.kafka.clients
logger.clients.level = WARN
logger.config.name = org.apache.kafka.common.config.AbstractConfig
logger.config.level = WARN
`;

/** Like the brokers' (serial GC, C1 only), with room for connectors' batches. */
export const connectJvmOptions = [
  "-Xms64m",
  "-Xmx512m",
  "-XX:+UseSerialGC",
  "-XX:TieredStopAtLevel=1",
  "-XX:+ExitOnOutOfMemoryError",
  "-Djava.awt.headless=true",
];
