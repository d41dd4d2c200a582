/**
 * The ways npm run bench:connect creates connectors, one column each. A path creates a connector,
 * tells when it runs, and deletes it; everything measured around it is the same for every path.
 * Today: `directPath`, connectors PUT straight on Connect's REST API (the floor). The registry's
 * column (CREATE STREAM SOURCE / SINK through GraphQL, ONLINE as "running") is one more function
 * returning a ConnectorPath, added to `paths` in connect.bench.ts.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { ConnectWorker, ConnectorConfig } from "@stream-registry/testkit";

export interface ConnectorPath {
  /** The column's heading, e.g. "direct on Connect". */
  readonly label: string;
  /** Asks for the connector; resolves once the request was accepted (not once it runs). */
  create(name: string, config: ConnectorConfig): Promise<void>;
  /** Resolves once the connector and all its tasks run; throws on a failed task or after `timeoutMs`. */
  waitRunning(name: string, timeoutMs?: number): Promise<void>;
  remove(name: string): Promise<void>;
}

interface ConnectorStatus {
  connector: { state: string };
  tasks: { state: string; trace?: string }[];
}

/** Connectors created with POST /connectors on the worker itself: what the registry is compared with. */
export function directPath(worker: ConnectWorker): ConnectorPath {
  return {
    label: "direct on Connect",
    async create(name, config) {
      await worker.request("POST", "/connectors", { name, config });
    },
    async waitRunning(name, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = await worker
          .request<ConnectorStatus>("GET", `/connectors/${name}/status`)
          .catch(() => undefined);
        const failed = status?.tasks.find((task) => task.state === "FAILED");
        if (failed) throw new Error(`${name}'s task failed: ${failed.trace ?? "(no trace)"}`);
        const tasks = status?.tasks ?? [];
        if (
          status?.connector.state === "RUNNING" &&
          tasks.length > 0 &&
          tasks.every((task) => task.state === "RUNNING")
        ) {
          return;
        }
        if (Date.now() > deadline) throw new Error(`${name} not RUNNING after ${timeoutMs} ms`);
        await sleep(20);
      }
    },
    async remove(name) {
      await worker.request("DELETE", `/connectors/${name}`);
    },
  };
}
