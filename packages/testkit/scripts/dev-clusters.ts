import { join } from "node:path";
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
