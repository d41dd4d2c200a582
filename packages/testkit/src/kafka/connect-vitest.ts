import { afterAll, beforeAll } from "vitest";
import { startConnectWorker } from "./connect-worker.ts";
import type { ConnectWorker, ConnectWorkerOptions } from "./connect-worker.ts";
import { dumpKafkaLogsOnFailure, owners } from "./vitest.ts";

/** The Connect worker of a test file; filled in `beforeAll`. */
export interface ConnectWorkerHandle {
  readonly worker: ConnectWorker;
}

/**
 * A Connect worker of this test file alone (one per file: a JVM start costs seconds), on brokers the
 * file already has, e.g. `useConnectWorker(() => kafka.at(0).bootstrapServers)` after
 * `useSharedKafkaClusters()`: started in beforeAll, stopped and removed in afterAll, and never left
 * running when it fails to start. Its internal topics are its own, so workers of other files on the
 * same brokers never meet.
 */
export function useConnectWorker(
  bootstrapServers: () => string,
  options: Omit<ConnectWorkerOptions, "bootstrapServers" | "ownerPids" | "dir"> = {},
): ConnectWorkerHandle {
  let started: ConnectWorker | undefined;
  beforeAll(async () => {
    started = await startConnectWorker({
      ...options,
      bootstrapServers: bootstrapServers(),
      ownerPids: owners(),
    });
  }, 180_000);
  afterAll(async () => {
    await started?.[Symbol.asyncDispose]();
  }, 60_000);
  dumpKafkaLogsOnFailure(() => (started ? [started] : []));
  return {
    get worker() {
      if (started === undefined) throw new Error("No Connect worker: it starts in beforeAll");
      return started;
    },
  };
}
