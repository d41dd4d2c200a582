/** Settings of one single-node KRaft cluster (combined broker and controller). */
export interface BrokerSettings {
  port: number;
  controllerPort: number;
  logDir: string;
  /** The client (and inter-broker) listener's protocol; default PLAINTEXT. */
  protocol?: string;
  /** More settings, e.g. the secured listener's (security.ts). */
  extra?: Record<string, string>;
}

/**
 * server.properties tuned for tests on a small machine: one replica everywhere, no rebalance delay,
 * no automatic topic creation (the registry must create topics itself), few threads.
 */
export function serverProperties({
  port,
  controllerPort,
  logDir,
  protocol = "PLAINTEXT",
  extra = {},
}: BrokerSettings): string {
  const settings: Record<string, string | number | boolean> = {
    "process.roles": "broker,controller",
    "node.id": 1,
    "controller.quorum.voters": `1@127.0.0.1:${controllerPort}`,
    listeners: `${protocol}://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    "advertised.listeners": `${protocol}://127.0.0.1:${port}`,
    "controller.listener.names": "CONTROLLER",
    "inter.broker.listener.name": protocol,
    "listener.security.protocol.map": `${protocol}:${protocol},CONTROLLER:PLAINTEXT`,
    "log.dirs": logDir,
    "num.partitions": 1,
    "default.replication.factor": 1,
    "min.insync.replicas": 1,
    "offsets.topic.replication.factor": 1,
    "offsets.topic.num.partitions": 3,
    "transaction.state.log.replication.factor": 1,
    "transaction.state.log.min.isr": 1,
    "share.coordinator.state.topic.replication.factor": 1,
    "share.coordinator.state.topic.min.isr": 1,
    "group.initial.rebalance.delay.ms": 0,
    "auto.create.topics.enable": false,
    "delete.topic.enable": true,
    "num.network.threads": 2,
    "num.io.threads": 2,
    "num.recovery.threads.per.data.dir": 1,
    "log.cleaner.threads": 1,
    ...extra,
  };
  return Object.entries(settings)
    .map(([key, value]) => `${key}=${value}`)
    .join("\n")
    .concat("\n");
}

/** log4j2 configuration: everything to stdout, which the testkit sends to the cluster's log file. */
export const log4j2Properties = `status = warn
appender.out.type = Console
appender.out.name = STDOUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = STDOUT
logger.state.name = state.change.logger
logger.state.level = WARN
logger.cleaner.name = kafka.log.LogCleaner
logger.cleaner.level = WARN
`;

/**
 * A small heap and the serial collector: a test broker holds little data. C1 only: on a busy 2-core
 * machine a fresh broker was ready in ~6 s instead of 12-20 s with the full JIT.
 */
export const brokerJvmOptions = [
  "-Xms64m",
  "-Xmx384m",
  "-XX:+UseSerialGC",
  "-XX:TieredStopAtLevel=1",
  "-XX:+ExitOnOutOfMemoryError",
  "-Djava.awt.headless=true",
];
