import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { startKafkaClusters } from "./cluster.ts";
import type { KafkaCluster, KafkaClusterOptions } from "./cluster.ts";
import { SHARED_CLUSTER_COUNT, sharedKafkaClusters } from "./shared.ts";
import type { SharedKafkaCluster, SharedKafkaSpec } from "./shared.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** Set by packages/testkit/src/kafka/global-setup.ts for the projects that list it. */
    kafkaShared: SharedKafkaSpec | undefined;
  }
}

interface LogSource {
  name: string;
  logFile: string;
  logTail(lines?: number): string;
}

/** Prints the last lines of each broker's (or Connect worker's) log when a test of this file fails. */
export function dumpKafkaLogsOnFailure(sources: () => Iterable<LogSource>, lines = 50): void {
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      for (const source of sources()) {
        process.stderr.write(
          `\n--- Kafka cluster ${source.name}: last ${lines} lines of ${source.logFile} ---\n${source.logTail(lines)}\n`,
        );
      }
    });
  });
}

/**
 * This worker and, when known, the Vitest main process: a fork worker can outlive a killed Vitest
 * for a while, and its brokers should not.
 */
export function owners(): number[] {
  const main = inject("kafkaShared")?.ownerPid;
  return main === undefined || main === process.pid ? [process.pid] : [process.pid, main];
}

/** Clusters a test file uses; filled in `beforeAll`. */
export interface KafkaClustersHandle<C> {
  readonly all: readonly C[];
  at(index: number): C;
}

function handle<C>(clusters: C[]): KafkaClustersHandle<C> {
  return {
    get all() {
      return clusters;
    },
    at(index) {
      const cluster = clusters[index];
      if (cluster === undefined)
        throw new Error(`No Kafka cluster #${index}: ${clusters.length} started (beforeAll done?)`);
      return cluster;
    },
  };
}

/**
 * Two clusters shared by every test file of the run (of the projects that list the Kafka global setup
 * in vitest.config.ts); started by the first file that asks. Tests must use topic names of their own
 * and must not stop these brokers. Without the global setup, the file gets private clusters instead.
 */
export function useSharedKafkaClusters(): KafkaClustersHandle<SharedKafkaCluster> {
  const clusters: SharedKafkaCluster[] = [];
  let owned: KafkaCluster[] = [];
  beforeAll(async () => {
    const spec = inject("kafkaShared");
    if (spec === undefined) {
      owned = await startKafkaClusters(SHARED_CLUSTER_COUNT, { ownerPids: owners() });
      clusters.push(...owned);
    } else {
      clusters.push(...(await sharedKafkaClusters(spec)));
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.all(owned.map((cluster) => cluster[Symbol.asyncDispose]()));
  }, 60_000);
  dumpKafkaLogsOnFailure(() => clusters);
  return handle(clusters);
}

/**
 * Clusters of this test file alone (e.g. to stop a broker, or `{ security: "SASL_SSL" }`): started in
 * beforeAll, removed in afterAll.
 */
export function usePrivateKafkaClusters(
  count = 1,
  options: Pick<KafkaClusterOptions, "security" | "version"> = {},
): KafkaClustersHandle<KafkaCluster> {
  const clusters: KafkaCluster[] = [];
  beforeAll(async () => {
    clusters.push(...(await startKafkaClusters(count, { ...options, ownerPids: owners() })));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(clusters.map((cluster) => cluster[Symbol.asyncDispose]()));
  }, 60_000);
  dumpKafkaLogsOnFailure(() => clusters);
  return handle(clusters);
}
