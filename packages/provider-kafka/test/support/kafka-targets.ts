import { randomBytes } from "node:crypto";
import type { ConfigMap, ConfigMaps } from "@stream-registry/core";
import {
  ProviderError,
  type BindingRequest,
  type ClusterTarget,
  type SchemaContext,
} from "@stream-registry/provider-api";
import { kafkaClient } from "@stream-registry/testkit";
import { Kafka, logLevel, type Admin, type KafkaConfig } from "kafkajs";
import { expect } from "vitest";
import { createKafkaProvider, type KafkaFactory, type KafkaProviderOptions } from "../../src/index.ts";

/** A topic name no other test uses (shared clusters live for the whole run). */
export function topicName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString("hex")}`;
}

export function clusterTarget(bootstrapServers: string, name = "c1", extra: ConfigMap = {}): ClusterTarget {
  return {
    namespace: "/",
    name,
    config: { "apache.kafka": { "bootstrap.servers": bootstrapServers, ...extra } },
  };
}

export function bindingRequest(
  streamName: string,
  cluster: ClusterTarget,
  configMaps: ConfigMaps,
): BindingRequest {
  return { streamName, cluster, configMaps, producerConfig: {}, consumerConfig: {} };
}

export const context = () => ({ signal: new AbortController().signal });

/** A SchemaManager call's context: a cluster whose "schema.registry" map names `url`. */
export function schemaContext(url: string, password: string): SchemaContext {
  const cluster = clusterTarget("127.0.0.1:9092");
  cluster.config["schema.registry"] = { url, username: "ci", password };
  return { signal: new AbortController().signal, cluster };
}

/** The ProviderError a provider call rejects with; fails the test if the call succeeds or throws anything else. */
export async function providerFailure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** A kafkajs factory whose clients are counted: clients made, admin connects and disconnects. */
export function countingFactory() {
  const counts = { clients: 0, connects: 0, disconnects: 0, requests: {} as Record<string, number> };
  const factory: KafkaFactory = (config: KafkaConfig) => {
    counts.clients += 1;
    const kafka = new Kafka({ ...config, logLevel: logLevel.NOTHING });
    const admin = kafka.admin.bind(kafka);
    kafka.admin = (adminConfig) => {
      const client = admin(adminConfig);
      client.on(client.events.CONNECT, () => (counts.connects += 1));
      client.on(client.events.DISCONNECT, () => (counts.disconnects += 1));
      // Requests sent to the brokers, by Kafka API name ("CreateTopics", "DeleteTopics", ...).
      client.on(client.events.REQUEST, ({ payload }) => {
        counts.requests[payload.apiName] = (counts.requests[payload.apiName] ?? 0) + 1;
      });
      return client;
    };
    return kafka;
  };
  return { factory, counts };
}

/** A provider whose kafkajs clients are counted (see countingFactory). */
export function countingProvider(options: KafkaProviderOptions = {}) {
  const { factory, counts } = countingFactory();
  const provider = createKafkaProvider({ logLevel: "nothing", ...options, kafkaFactory: factory });
  return { provider, counts };
}

/** An admin of the test's own, to check what the provider did. */
export async function ownAdmin(bootstrapServers: string): Promise<Admin & AsyncDisposable> {
  const admin = kafkaClient(bootstrapServers).admin();
  await admin.connect();
  return Object.assign(admin, { [Symbol.asyncDispose]: () => admin.disconnect() });
}

/** The topic as the test's own admin sees it: partitions, replication and topic-level overrides. */
export async function inspectTopic(admin: Admin, topic: string) {
  const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
  const partitions = metadata.topics[0]?.partitions ?? [];
  const { resources } = await admin.describeConfigs({
    resources: [{ type: 2, name: topic }],
    includeSynonyms: false,
  });
  const overrides = Object.fromEntries(
    (resources[0]?.configEntries ?? [])
      .filter((entry) => entry.configSource === 1)
      .map((entry) => [entry.configName, entry.configValue]),
  );
  return {
    partitions: partitions.length,
    replicationFactor: partitions[0]?.replicas.length,
    overrides,
  };
}

/** Retries `check` until it passes or `timeoutMs` ends (Kafka deletes topics asynchronously). */
export async function eventually<T>(
  check: () => Promise<T>,
  timeoutMs = 15_000,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
