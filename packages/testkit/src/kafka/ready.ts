import { setTimeout as sleep } from "node:timers/promises";
import type { KafkaConfig } from "kafkajs";
import { kafkaClient } from "./client.ts";

/**
 * Waits until the broker answers a real admin call (describeCluster with a controller): the log line
 * "Kafka Server started" comes a little before the broker accepts metadata requests.
 */
export async function waitUntilReady(
  bootstrapServers: string,
  isRunning: () => boolean,
  describeFailure: () => string,
  timeoutMs = 90_000,
  clientConfig: Partial<KafkaConfig> = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (!isRunning())
      throw new Error(`The Kafka broker at ${bootstrapServers} exited while starting.\n${describeFailure()}`);
    const admin = kafkaClient(bootstrapServers, {
      ...clientConfig,
      retry: { retries: 0 },
      connectionTimeout: 1_000,
    }).admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      if (cluster.brokers.length > 0 && cluster.controller !== null) return;
    } catch (error) {
      lastError = error;
    } finally {
      await admin.disconnect().catch(() => {});
    }
    await sleep(250);
  }
  throw new Error(
    `The Kafka broker at ${bootstrapServers} was not ready after ${timeoutMs} ms (last error: ${String(lastError)}).\n${describeFailure()}`,
  );
}
