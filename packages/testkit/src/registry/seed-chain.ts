import type { GraphQLClient } from "./graphql-client.ts";
import { mutate } from "./mutate.ts";
import { CREATE_BINDING, CREATE_STREAM, DECLARE_CLUSTER, type BindingView } from "./operations.ts";
import {
  uniqueName,
  type BindingSeed,
  type ClusterSeed,
  type SeededBinding,
  type SeededCluster,
  type SeededStream,
  type StreamSeed,
} from "./seed.ts";

/** What a chain made, in the order it made them. */
export interface Seeded {
  clusters: SeededCluster[];
  streams: SeededStream[];
  bindings: SeededBinding[];
}

/**
 * Seeds made through one client, down the tree: `.at(namespace)` names where the steps after it
 * make their objects (the client routes them to the registry that owns it), and `.binding()`
 * binds the chain's last stream on its last cluster unless told otherwise, so
 * `seedChain(root).at("/aws").cluster().stream().binding()` is a cluster, a stream and its binding
 * in /aws. A chain is a value (each call returns a longer one) and runs when awaited, one mutation
 * at a time, failing on the first userError (mutate). Names left out are unique (uniqueName).
 */
export interface SeedChain extends PromiseLike<Seeded> {
  at(namespace: string): SeedChain;
  cluster(seed?: ClusterSeed): SeedChain;
  stream(seed?: StreamSeed): SeedChain;
  binding(seed?: BindingSeed): SeedChain;
}

type Step =
  | { kind: "at"; namespace: string }
  | { kind: "cluster"; seed: ClusterSeed }
  | { kind: "stream"; seed: StreamSeed }
  | { kind: "binding"; seed: BindingSeed };

export function seedChain(client: GraphQLClient): SeedChain {
  return chain(client, []);
}

function chain(client: GraphQLClient, steps: readonly Step[]): SeedChain {
  const next = (step: Step) => chain(client, [...steps, step]);
  return {
    at: (namespace) => next({ kind: "at", namespace }),
    cluster: (seed = {}) => next({ kind: "cluster", seed }),
    stream: (seed = {}) => next({ kind: "stream", seed }),
    binding: (seed = {}) => next({ kind: "binding", seed }),
    then: (onFulfilled, onRejected) => run(client, steps).then(onFulfilled, onRejected),
  };
}

async function run(client: GraphQLClient, steps: readonly Step[]): Promise<Seeded> {
  const made: Seeded = { clusters: [], streams: [], bindings: [] };
  let where: { namespace?: string } = {};
  for (const step of steps) {
    if (step.kind === "at") {
      where = { namespace: step.namespace };
    } else if (step.kind === "cluster") {
      const { name = uniqueName("cluster"), ...rest } = step.seed;
      const input = { name, ...rest, ...where };
      made.clusters.push(
        (await mutate<{ cluster: SeededCluster }>(client, DECLARE_CLUSTER, { input })).cluster,
      );
    } else if (step.kind === "stream") {
      const { name = uniqueName("stream"), ...rest } = step.seed;
      const input = { name, ...rest, ...where };
      made.streams.push((await mutate<{ stream: SeededStream }>(client, CREATE_STREAM, { input })).stream);
    } else {
      const { stream = made.streams.at(-1), cluster = made.clusters.at(-1), ...rest } = step.seed;
      if (!stream || !cluster)
        throw new Error(
          "seedChain: binding() needs a stream and a cluster, given or made before it in the chain",
        );
      const names = { stream: nameOf(stream), cluster: nameOf(cluster) };
      const input = { ...names, ...rest, ...where };
      const { binding } = await mutate<{ binding: BindingView }>(client, CREATE_BINDING, { input });
      made.bindings.push({ ...binding, ...names });
    }
  }
  return made;
}

function nameOf(named: string | { name: string }): string {
  return typeof named === "string" ? named : named.name;
}
