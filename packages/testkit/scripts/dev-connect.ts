import { existsSync } from "node:fs";
import { join } from "node:path";
import { createConnectWorker } from "../src/kafka/connect-worker.ts";
import type { ConnectWorker } from "../src/kafka/connect-worker.ts";
import { devDir } from "./dev-clusters.ts";

/** The developer worker of `npm run connect:up`: kept under .cache/kafka/dev/connect with its group. */
export const devConnectDir = join(devDir, "connect");

/** CONNECT_PORT="18083": the worker's REST port on 127.0.0.1. */
export function devConnectPort(env = process.env): number {
  const port = Number(env.CONNECT_PORT ?? "18083");
  if (!Number.isInteger(port) || port < 1024 || port > 65535) {
    throw new Error(`CONNECT_PORT (${JSON.stringify(env.CONNECT_PORT)}) must be a port from 1024 to 65535`);
  }
  return port;
}

/** The developer worker if `connect:up` made one (not necessarily running). */
export async function existingDevWorker(): Promise<ConnectWorker | undefined> {
  if (!existsSync(join(devConnectDir, "worker.json"))) return undefined;
  return createConnectWorker({ dir: devConnectDir, bootstrapServers: "" });
}
