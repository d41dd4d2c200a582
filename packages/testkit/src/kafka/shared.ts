import { existsSync, readdirSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { createKafkaCluster } from "./cluster.ts";
import type { KafkaCluster } from "./cluster.ts";
import { withFileLock, isAlive } from "./lock.ts";
import { kafkaCacheDir } from "./paths.ts";

/** How test workers find the clusters shared by one Vitest run (provided by the global setup). */
export interface SharedKafkaSpec {
  dir: string;
  ownerPid: number;
}

/** A shared cluster: other test files use it too, so it cannot be stopped from a test. */
export type SharedKafkaCluster = Omit<KafkaCluster, "stop" | "start" | typeof Symbol.asyncDispose>;

export const SHARED_CLUSTER_COUNT = 2;
const sharedRoot = join(kafkaCacheDir, "shared");

export function sharedKafkaSpec(ownerPid = process.pid): SharedKafkaSpec {
  return { dir: join(sharedRoot, String(ownerPid)), ownerPid };
}

/**
 * The run's shared clusters, started by the first test file that asks (so runs that need no Kafka
 * pay nothing) and reused by the others. The brokers belong to the Vitest main process: they die with
 * it, and the global setup's teardown stops them.
 */
export async function sharedKafkaClusters(spec: SharedKafkaSpec): Promise<SharedKafkaCluster[]> {
  await mkdir(spec.dir, { recursive: true });
  return withFileLock(`${spec.dir}.lock`, 5 * 60_000, async () => {
    const clusters = await Promise.all(
      Array.from({ length: SHARED_CLUSTER_COUNT }, (_, i) =>
        createKafkaCluster({
          name: `kafka-${i + 1}`,
          dir: join(spec.dir, `kafka-${i + 1}`),
          ownerPids: [spec.ownerPid],
        }),
      ),
    );
    await Promise.all(clusters.map((cluster) => cluster.start()));
    return clusters;
  });
}

/** Stops the shared clusters of a run and removes their files. */
export async function stopSharedKafkaClusters(spec: SharedKafkaSpec): Promise<void> {
  if (!existsSync(spec.dir)) return;
  await withFileLock(`${spec.dir}.lock`, 5 * 60_000, async () => {
    if (!existsSync(spec.dir)) return;
    for (const entry of readdirSync(spec.dir)) {
      const cluster = await createKafkaCluster({ dir: join(spec.dir, entry) });
      await cluster.stop();
    }
    await rm(spec.dir, { recursive: true, force: true });
  });
}

/** Files of runs whose Vitest died; their watchdogs already ended the brokers. */
export async function removeStaleSharedClusters(): Promise<void> {
  if (!existsSync(sharedRoot)) return;
  for (const entry of readdirSync(sharedRoot)) {
    // "<pid>" directories and their "<pid>.lock" files.
    const pid = Number(/^(\d+)(\.lock)?$/.exec(entry)?.[1] ?? NaN);
    if (Number.isInteger(pid) && !isAlive(pid))
      await rm(join(sharedRoot, entry), { recursive: true, force: true });
  }
}
