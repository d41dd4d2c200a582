// npm run kafka:up — two Kafka clusters in the background for local development (see docs/kafka.md).
import { ensureKafkaJars } from "../src/kafka/jars.ts";
import { KAFKA_VERSION } from "../src/kafka/version.ts";
import { devClusters, startDevCluster } from "./dev-clusters.ts";

const clusters = devClusters();
await ensureKafkaJars();
for (const line of await Promise.all(clusters.map(startDevCluster))) console.log(line);

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
