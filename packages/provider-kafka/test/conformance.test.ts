import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClusterTarget, ConnectorRequest } from "@stream-registry/provider-api";
import { defineProviderConformanceSuite } from "@stream-registry/provider-api/conformance";
import { useConnectWorker, useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { kafkaProvider } from "../src/index.ts";
import { clusterTarget, topicName } from "./support/kafka-targets.ts";

const kafka = useSharedKafkaClusters();
// Sources and sinks are connectors of this worker (the cluster's "kafka.connect").
const connect = useConnectWorker(() => kafka.at(0).bootstrapServers);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** File connectors: a source of a file that is never written, a sink to a file of its own. */
function fileConnectors(cluster: ClusterTarget, dir: string, role: "source" | "sink") {
  return {
    request: (): ConnectorRequest => {
      const name = topicName(`conformance_${role}`);
      return {
        name,
        type: "file",
        cluster,
        configMaps: { [`file-${role}`]: { file: join(dir, name) } },
        state: "RUNNING",
      };
    },
    conflicting: (request: ConnectorRequest): ConnectorRequest => ({
      ...request,
      configMaps: { [`file-${role}`]: { file: join(dir, `${request.name}.other`) } },
    }),
  };
}

defineProviderConformanceSuite(
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "sr-conformance-connect-"));
    const cluster = clusterTarget(kafka.at(0).bootstrapServers, "conformance");
    cluster.config["kafka.connect"] = { url: connect.worker.url };
    return {
      provider: kafkaProvider,
      cluster,
      unreachableCluster: clusterTarget(`127.0.0.1:${await closedPort()}`, "conformance-down"),
      validStream: { "apache.kafka": { partitions: 2, replication: 1, compacted: false } },
      invalidStream: {
        configMaps: { "apache.kafka": { partitions: 0 } },
        field: ["apache.kafka", "partitions"],
      },
      conflictingStream: { "apache.kafka": { partitions: 3, replication: 1, compacted: false } },
      observesRealInfrastructure: true,
      streamName: () => topicName("conformance"),
      sources: fileConnectors(cluster, dir, "source"),
      sinks: fileConnectors(cluster, dir, "sink"),
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  },
  { title: "kafka provider conformance" },
);
