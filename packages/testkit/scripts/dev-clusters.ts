import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createKafkaCluster } from "../src/kafka/cluster.ts";
import type { KafkaClusterState } from "../src/kafka/cluster.ts";
import { kafkaCacheDir } from "../src/kafka/paths.ts";

/** The developer clusters of `npm run kafka:up`: fixed ports, data kept under .cache/kafka/dev. */
export const devDir = join(kafkaCacheDir, "dev");

export interface DevCluster {
  name: string;
  dir: string;
  port: number;
  controllerPort: number;
}

/** KAFKA_PORTS="19092,29092": one cluster per port; its controller listens on the next port. */
export function devClusters(env = process.env): DevCluster[] {
  const text = env.KAFKA_PORTS ?? "19092,29092";
  return text.split(",").map((entry, index) => {
    const port = Number(entry.trim());
    if (!Number.isInteger(port) || port < 1024 || port > 65534) {
      throw new Error(
        `KAFKA_PORTS: entry ${index + 1} (${JSON.stringify(entry)}) must be a port from 1024 to 65534`,
      );
    }
    const name = `kafka-${index + 1}`;
    return { name, dir: join(devDir, name), port, controllerPort: port + 1 };
  });
}

export async function portIsFree(port: number): Promise<boolean> {
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

/** Starts (or attaches to) one developer cluster; returns a line saying what happened. */
export async function startDevCluster(dev: DevCluster): Promise<string> {
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
