import type { ConfigMaps } from "./config-maps.ts";
import type { Phase } from "./phase.ts";

/**
 * The registry's objects as the persistence layer (store) hands them up: what services,
 * resolvers and the reconciler work with. Config maps are typed (they are checked before they
 * are stored); the database's JSON columns never leave store.
 */

export interface Cluster {
  id: string;
  name: string;
  /** The kind of the stream provider that realizes bindings on it. */
  provider: string;
  config: ConfigMaps;
  generation: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface Stream {
  id: string;
  name: string;
  config: ConfigMaps;
  producerConfig: ConfigMaps;
  consumerConfig: ConfigMaps;
  generation: number;
  /** Set by a cascading delete; the stream goes when its last binding is gone. */
  deleting: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A stream realized on a cluster: its overrides of the stream's config maps (the desired state,
 * `generation`) and where realizing it stands (`observedGeneration`, `phase`, `message`).
 */
export interface Binding {
  id: string;
  streamId: string;
  clusterId: string;
  /** The stream's binding used when a client names no cluster: its oldest live one. */
  isDefault: boolean;
  config: ConfigMaps;
  producerConfig: ConfigMaps;
  consumerConfig: ConfigMaps;
  generation: number;
  /** The generation the provider last realized; null before the first. */
  observedGeneration: number | null;
  phase: Phase;
  message: string | null;
  statusUpdatedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** What the provider last saw of a binding on its platform (a Kafka topic's partitions, configs, records). */
export interface BindingObservation {
  message: string | null;
  details: unknown;
  observedAt: Date;
}

/** A cluster's last probe, as stored; health rules (staleness) are applied when it is shown. */
export interface ClusterHealth {
  status: "UP" | "DOWN";
  checkedAt: Date;
  latencyMs: number | null;
  brokerCount: number | null;
  details: unknown;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastUpAt: Date | null;
}
