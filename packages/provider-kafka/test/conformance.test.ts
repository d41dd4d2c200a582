import { createServer } from "node:net";
import { defineProviderConformanceSuite } from "@stream-registry/provider-api/conformance";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { kafkaProvider } from "../src/index.ts";
import { clusterTarget, topicName } from "./support/kafka-targets.ts";

const kafka = useSharedKafkaClusters();

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

defineProviderConformanceSuite(
  async () => ({
    provider: kafkaProvider,
    cluster: clusterTarget(kafka.at(0).bootstrapServers, "conformance"),
    unreachableCluster: clusterTarget(`127.0.0.1:${await closedPort()}`, "conformance-down"),
    validStream: { "apache.kafka": { partitions: 2, replication: 1, compacted: false } },
    invalidStream: {
      configMaps: { "apache.kafka": { partitions: 0 } },
      field: ["apache.kafka", "partitions"],
    },
    conflictingStream: { "apache.kafka": { partitions: 3, replication: 1, compacted: false } },
    observesRealInfrastructure: true,
    streamName: () => topicName("conformance"),
  }),
  { title: "kafka provider conformance" },
);
