/**
 * The Apache Kafka version the testkit runs. 4.x because kafkajs 2.2.4 covers every call the
 * provider makes against it (see docs/kafka.md); keep packages/testkit/kafka/pom.xml in step.
 */
export const KAFKA_VERSION = "4.4.0";
