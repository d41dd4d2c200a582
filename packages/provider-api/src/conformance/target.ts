import type { ConfigMaps } from "@stream-registry/core";
import type { ConnectorRequest } from "../connectors.ts";
import type { ClusterTarget } from "../operation.ts";
import type { StreamProvider } from "../provider.ts";
import type { ReplicationRequest } from "../replication.ts";

/** A stream config a provider must refuse, and the field (inside the config maps) it must name. */
export interface InvalidStream {
  configMaps: ConfigMaps;
  /** e.g. ["apache.kafka", "partitions"]: some issue of the refusal must name exactly this path. */
  field: string[];
}

/**
 * How the suite exercises a realized kind beyond bindings (a stream source, a sink, a replication):
 * what the binding fields of ConformanceTarget (`validStream`, `conflictingStream`, `streamName`)
 * are for bindings.
 */
export interface ResourceSample<Request> {
  /** A request the provider accepts, for a resource no other test uses (a new name each call). */
  request(): Request | Promise<Request>;
  /**
   * A request for the same resource as `request` that differs from it: a create of it over the
   * existing resource must throw ResourceConflictError and leave that resource as it is. Omit it
   * only when the kind has nothing to compare.
   */
  conflicting?(request: Request): Request;
}

/**
 * What the conformance suite runs against: a provider and the infrastructure to exercise it on.
 * Built once per suite (in `beforeAll`), so a factory may start real clusters.
 */
export interface ConformanceTarget {
  provider: StreamProvider;
  /** A cluster the provider can reach; bindings are created and deleted on it. */
  cluster: ClusterTarget;
  /**
   * A cluster declared with config the provider accepts but whose platform cannot be reached (a
   * closed port). Omit it only for providers that reach nothing (registry-only).
   */
  unreachableCluster?: ClusterTarget;
  /** A stream config the provider accepts on `cluster`, e.g. `{"apache.kafka": {partitions: 1}}`. */
  validStream: ConfigMaps;
  /** A stream config the provider refuses (omit only when it accepts every stream config). */
  invalidStream?: InvalidStream;
  /**
   * A stream config the provider accepts whose resource differs from `validStream`'s (e.g. more
   * partitions): a create of it where `validStream`'s resource exists must throw
   * ResourceConflictError and leave that resource as it is. Omit it only for providers whose
   * bindings have nothing to compare (registry-only).
   */
  conflictingStream?: ConfigMaps;
  /** A stream name no other test uses (on real clusters, names outlive a test run). Default: random. */
  streamName?(): string;
  /**
   * True when bindings (and the other kinds it supports) become real resources that observing
   * sees (a Kafka topic): the suite then checks that an observation appears after create and
   * disappears after delete.
   */
  observesRealInfrastructure: boolean;
  /**
   * One sample for each optional realized kind the provider supports: required where the provider
   * has the manager (`provider.sources`, ...), refused where it has not. Bindings, which every
   * provider supports, are exercised with the stream fields above.
   */
  sources?: ResourceSample<ConnectorRequest>;
  sinks?: ResourceSample<ConnectorRequest>;
  replication?: ResourceSample<ReplicationRequest>;
  /** How long probing `unreachableCluster` may take before it must have failed. Default 15 000. */
  unreachableTimeoutMs?: number;
  /** How long a call given an already-aborted signal may take to reject. Default 2 000. */
  abortTimeoutMs?: number;
  /** Releases what the factory started (clusters, temp dirs); called once after the suite. */
  dispose?(): Promise<void>;
}

export type ConformanceFactory = () => ConformanceTarget | Promise<ConformanceTarget>;
