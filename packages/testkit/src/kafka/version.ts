/**
 * The Apache Kafka version the testkit runs. 4.x because kafkajs 2.2.4 covers every call the
 * provider makes against it (see docs/kafka.md); keep packages/testkit/kafka/pom.xml in step.
 */
export const KAFKA_VERSION = "4.4.0";

/**
 * The Kafka Connect worker's version: the whole worker is one version, and connect-file and
 * connect-mirror are not published at 4.4.0 or 4.3.2. A 4.3.1 worker speaks to the 4.4.0 brokers.
 * Keep packages/testkit/connect/pom.xml in step.
 */
export const CONNECT_VERSION = "4.3.1";
