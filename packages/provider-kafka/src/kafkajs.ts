import kafkajs from "kafkajs";

/**
 * kafkajs is CommonJS and Node's ESM loader cannot see all of its named exports
 * (ConfigResourceTypes, ConfigSource, the error classes), so they are taken from the default export once, here.
 */
export const { Kafka, ConfigResourceTypes, ConfigSource, logLevel, KafkaJSError, KafkaJSAggregateError } =
  kafkajs;
