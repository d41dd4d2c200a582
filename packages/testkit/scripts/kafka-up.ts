// npm run kafka:up — two Kafka clusters in the background for local development (see docs/kafka.md).
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createKafkaCluster } from "../src/kafka/cluster.ts";
import type { KafkaClusterState } from "../src/kafka/cluster.ts";
import { ensureKafkaJars } from "../src/kafka/jars.ts";
import { KAFKA_VERSION } from "../src/kafka/version.ts";
import { devClusters } from "./dev-clusters.ts";
import type { DevCluster } from "./dev-clusters.ts";

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

function recordedState(dev: DevCluster): KafkaClusterState | undefined {
  const file = join(dev.dir, "cluster.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as KafkaClusterState) : undefined;
}

async function up(dev: DevCluster): Promise<string> {
  const recorded = recordedState(dev);
  if (recorded && (recorded.port !== dev.port || recorded.controllerPort !== dev.controllerPort)) {
    throw new Error(
      `${dev.dir} holds a cluster on port ${recorded.port}, not ${dev.port}: run \`npm run kafka:down -- --purge\` first`,
    );
  }
  const cluster = await createKafkaCluster({ ...dev, ownerPids: [] });
  if (cluster.isRunning()) {
    await cluster.start();
    return `${cluster.name}: already running at ${cluster.bootstrapServers}`;
  }
  for (const port of [dev.port, dev.controllerPort]) {
    if (!(await portIsFree(port))) {
      throw new Error(
        `Port ${port} on 127.0.0.1 is taken by another process; choose others with KAFKA_PORTS`,
      );
    }
  }
  const started = Date.now();
  await cluster.start();
  return `${cluster.name}: started at ${cluster.bootstrapServers} in ${((Date.now() - started) / 1000).toFixed(1)} s (log: ${cluster.logFile})`;
}

const clusters = devClusters();
await ensureKafkaJars();
for (const line of await Promise.all(clusters.map(up))) console.log(line);

const declare = clusters
  .map(
    (dev) =>
      `DECLARE CLUSTER "local-${dev.name}" WITH PROVIDER "kafka" WITH CONFIG { "apache.kafka": { "bootstrap.servers": "127.0.0.1:${dev.port}" } };`,
  )
  .join("\n");
console.log(`
Apache Kafka ${KAFKA_VERSION}, single-node KRaft clusters; stop them with \`npm run kafka:down\`.

Declare them in a registry with srctl (\`npm start\` runs one at http://localhost:4000/graphql):
npx srctl -e '${declare.replaceAll("\n", " ")}'

or over GraphQL, with the config map in variables (GraphQL literals cannot have dotted keys):
mutation Declare($config: ConfigMaps) {
  declareCluster(input: { name: "local-${clusters[0]?.name}", provider: "kafka", config: $config }) {
    cluster { name health { status brokerCount } }
    userErrors { field message }
  }
}
variables: { "config": { "apache.kafka": { "bootstrap.servers": "127.0.0.1:${clusters[0]?.port}" } } }`);
