// npm run kafka:down [-- --purge] — stops the clusters of `npm run kafka:up` (and the worker of `connect:up`); --purge also deletes their data.
import { existsSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { createKafkaCluster } from "../src/kafka/cluster.ts";
import { devDir } from "./dev-clusters.ts";
import { existingDevWorker } from "./dev-connect.ts";

const purge = process.argv.includes("--purge");
// The worker first: it keeps its topics on the first cluster.
const worker = await existingDevWorker();
if (worker?.isRunning()) {
  await worker.stop();
  console.log(`connect (${worker.url}): stopped`);
}
const dirs = existsSync(devDir)
  ? readdirSync(devDir)
      .map((entry) => join(devDir, entry))
      .filter((dir) => existsSync(join(dir, "cluster.json")))
  : [];
if (dirs.length === 0) console.log("No developer Kafka clusters (nothing to stop).");
for (const dir of dirs) {
  const cluster = await createKafkaCluster({ dir });
  const wasRunning = cluster.isRunning();
  await cluster.stop();
  console.log(`${cluster.name} (${cluster.bootstrapServers}): ${wasRunning ? "stopped" : "was not running"}`);
}
if (purge && existsSync(devDir)) {
  await rm(devDir, { recursive: true, force: true });
  console.log(`Removed ${devDir}`);
}
