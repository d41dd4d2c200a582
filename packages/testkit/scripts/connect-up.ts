// npm run connect:up — the kafka:up clusters (started if needed) plus a Kafka Connect worker on the first (see docs/kafka.md).
import { createConnectWorker } from "../src/kafka/connect-worker.ts";
import { ensureConnectJars } from "../src/kafka/connect-jars.ts";
import { ensureKafkaJars } from "../src/kafka/jars.ts";
import { ensureThirdPartyPlugins } from "../src/kafka/plugins.ts";
import { CONNECT_VERSION } from "../src/kafka/version.ts";
import { devConnectDir, devConnectPort, existingDevWorker } from "./dev-connect.ts";
import { devClusters, portIsFree, startDevCluster } from "./dev-clusters.ts";

const clusters = devClusters();
const port = devConnectPort();
const first = clusters[0];
if (first === undefined) throw new Error("KAFKA_PORTS names no cluster");
await ensureKafkaJars();
await ensureConnectJars();
const plugins = await ensureThirdPartyPlugins();
for (const line of await Promise.all(clusters.map(startDevCluster))) console.log(line);

const bootstrapServers = `127.0.0.1:${first.port}`;
const recorded = await existingDevWorker();
if (recorded && (recorded.port !== port || recorded.bootstrapServers !== bootstrapServers)) {
  throw new Error(
    `${devConnectDir} holds a worker on port ${recorded.port} for ${recorded.bootstrapServers}, not ${port} for ${bootstrapServers}: run \`npm run connect:down -- --purge\` first`,
  );
}
const worker =
  recorded ??
  (await createConnectWorker({
    dir: devConnectDir,
    name: "connect",
    bootstrapServers,
    port,
    groupId: "connect-dev",
    ownerPids: [],
    plugins,
  }));
if (worker.isRunning()) {
  await worker.start();
  console.log(`connect: already running at ${worker.url}`);
} else {
  if (!(await portIsFree(port))) {
    throw new Error(
      `Port ${port} on 127.0.0.1 is taken by another process; choose another with CONNECT_PORT`,
    );
  }
  const started = Date.now();
  await worker.start();
  console.log(
    `connect: started at ${worker.url} on ${first.name} in ${((Date.now() - started) / 1000).toFixed(1)} s (log: ${worker.logFile})`,
  );
}

const config = `{ "apache.kafka": { "bootstrap.servers": "${bootstrapServers}" }, "kafka.connect": { "url": "${worker.url}" } }`;
console.log(`
Kafka Connect ${CONNECT_VERSION}, a single-node distributed worker (group "${worker.groupId}"); stop it with
\`npm run connect:down\` (the brokers keep running; \`npm run kafka:down\` stops everything).

Declare the cluster with its worker in a registry with srctl (\`npm start\` runs one at http://localhost:4000/graphql):
npx srctl -e 'DECLARE CLUSTER "local-${first.name}" WITH PROVIDER "kafka" WITH CONFIG ${config};'

Plugin folders: ${Object.keys(plugins).join(", ")} (a worker made by an older connect:up has what it had then:
\`npm run connect:down -- --purge\` and connect:up again for these).
The worker's REST API: curl ${worker.url}/connector-plugins`);
