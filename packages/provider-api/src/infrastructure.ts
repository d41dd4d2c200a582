import type { ConfigMaps } from "@stream-registry/core";

/** The cluster a binding lives on, as declared in the registry (providers keep no state of their own). */
export interface ClusterTarget {
  namespace: string;
  name: string;
  /** The cluster's config maps, secrets included: what a provider needs to connect. */
  config: ConfigMaps;
}

/** Everything a provider call may use besides its arguments. */
export interface OperationContext {
  /** Aborted when the registry shuts down or gives up on the call. */
  signal: AbortSignal;
}

/** What a provider saw after realizing a binding; shown to users beside the binding's status. */
export interface BindingObservation {
  /** A short human-readable summary, e.g. "topic has 10 partitions, replication 3". */
  message?: string;
  /** Provider-specific facts (partitions, configs, record counts...), all scalars. */
  details?: Record<string, string | number | boolean>;
}

export interface BindingRequest {
  streamName: string;
  cluster: ClusterTarget;
  /** The stream's config maps with the binding's overrides applied. */
  configMaps: ConfigMaps;
  producerConfig: ConfigMaps;
  consumerConfig: ConfigMaps;
}

/**
 * The seed's StreamInfrastructureManager: validates clusters and streams and realizes bindings.
 * Every method is idempotent: the reconciler may call it again after a crash or a retry.
 * Failures are thrown as InfrastructureError.
 */
export interface StreamInfrastructureManager {
  /** Validates the config maps given for a cluster (DECLARE CLUSTER). */
  validateCluster(clusterName: string, configMaps: ConfigMaps, context: OperationContext): Promise<void>;
  /**
   * Validates a stream's config maps; `cluster` is set when they are about to be bound there, so a
   * provider can check them against that cluster (e.g. replication at most the broker count).
   */
  validateStream(
    streamName: string,
    configMaps: ConfigMaps,
    context: OperationContext & { cluster?: ClusterTarget },
  ): Promise<void>;
  /** Creates the binding in the underlying platform; adopting an identical existing one is success. */
  createStreamBinding(request: BindingRequest, context: OperationContext): Promise<BindingObservation | void>;
  /** Brings an existing binding to the given config maps. */
  updateStreamBinding(request: BindingRequest, context: OperationContext): Promise<BindingObservation | void>;
  /** Deletes the binding; deleting one that is already gone is success. */
  deleteStreamBinding(streamName: string, cluster: ClusterTarget, context: OperationContext): Promise<void>;
}
