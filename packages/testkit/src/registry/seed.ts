import { randomBytes } from "node:crypto";
import type { GraphQLClient } from "./graphql-client.ts";
import { mutate } from "./mutate.ts";
import { CREATE_BINDING, CREATE_STREAM, DECLARE_CLUSTER, type BindingView } from "./operations.ts";

/** Config maps as the API takes them: map name -> keys -> values. */
export type ConfigMapsInput = Record<string, Record<string, unknown>>;

export interface ClusterSeed {
  /** Omitted: a name no other seed of this process used. */
  name?: string;
  provider?: string;
  config?: ConfigMapsInput;
}
export interface SeededCluster {
  name: string;
  provider: string;
  config: ConfigMapsInput;
  generation: number;
}

export interface StreamSeed {
  /** Omitted: a name no other seed of this process used. */
  name?: string;
  config?: ConfigMapsInput;
  producerConfig?: ConfigMapsInput;
  consumerConfig?: ConfigMapsInput;
}
export interface SeededStream {
  name: string;
  config: ConfigMapsInput;
  producerConfig: ConfigMapsInput;
  consumerConfig: ConfigMapsInput;
  generation: number;
}

/** A cluster or stream by name, or as a seed builder returned it. */
type Named = string | { name: string };

export interface BindingSeed {
  /** Omitted: a new stream. */
  stream?: Named;
  /** Omitted: a new registry-only cluster. */
  cluster?: Named;
  config?: ConfigMapsInput;
  producerConfig?: ConfigMapsInput;
  consumerConfig?: ConfigMapsInput;
}
export interface SeededBinding extends BindingView {
  stream: string;
  cluster: string;
}

/** Seed builders: the objects a test needs, made through the API and failing it on any userErrors. */
export interface Seeder {
  /** DECLARE CLUSTER. */
  cluster(seed?: ClusterSeed): Promise<SeededCluster>;
  /** CREATE STREAM. */
  stream(seed?: StreamSeed): Promise<SeededStream>;
  /** CREATE BINDING, seeding the stream and the cluster it is not given. Returned PENDING. */
  binding(seed?: BindingSeed): Promise<SeededBinding>;
}

const processTag = randomBytes(2).toString("hex");
let seeded = 0;

/** A name for `kind` that no other seed of this process used: valid for clusters and streams alike. */
export function uniqueName(kind: string): string {
  return `${kind}_${processTag}_${++seeded}`;
}

export function seed(client: GraphQLClient): Seeder {
  const seeder: Seeder = {
    async cluster({ name = uniqueName("cluster"), ...rest } = {}) {
      const { cluster } = await mutate<{ cluster: SeededCluster }>(client, DECLARE_CLUSTER, {
        input: { name, ...rest },
      });
      return cluster;
    },
    async stream({ name = uniqueName("stream"), ...rest } = {}) {
      const { stream } = await mutate<{ stream: SeededStream }>(client, CREATE_STREAM, {
        input: { name, ...rest },
      });
      return stream;
    },
    async binding({ stream, cluster, ...rest } = {}) {
      const streamName = nameOf(stream ?? (await seeder.stream()));
      const clusterName = nameOf(cluster ?? (await seeder.cluster()));
      const { binding } = await mutate<{ binding: BindingView }>(client, CREATE_BINDING, {
        input: { stream: streamName, cluster: clusterName, ...rest },
      });
      return { ...binding, stream: streamName, cluster: clusterName };
    },
  };
  return seeder;
}

function nameOf(named: Named): string {
  return typeof named === "string" ? named : named.name;
}
