import type { TestProject } from "vitest/node";
import { removeStaleSharedClusters, sharedKafkaSpec, stopSharedKafkaClusters } from "./shared.ts";
import type {} from "./vitest.ts";

// Every project that lists this file runs it, each in a module runner of its own; the count lives
// on globalThis so that the projects of one run share one pair of clusters and the last stops it.
const users = Symbol.for("stream-registry.testkit.kafka.sharedUsers");
const state = globalThis as typeof globalThis & { [users]?: number };

/** Vitest globalSetup: lets test files share two Kafka clusters per run (see useSharedKafkaClusters). */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const spec = sharedKafkaSpec();
  if ((state[users] ?? 0) === 0) await removeStaleSharedClusters();
  state[users] = (state[users] ?? 0) + 1;
  project.provide("kafkaShared", spec);
  return async () => {
    state[users] = (state[users] ?? 1) - 1;
    if (state[users] === 0) await stopSharedKafkaClusters(spec);
  };
}
