import type { ConfigMaps } from "@stream-registry/core";
import type { ClusterTarget, OperationContext } from "./operation.ts";
import type { BatchOutcome, JsonValue, ResourceManager, ResourceObservation } from "./resource-manager.ts";

/**
 * What a provider saw of a binding in the underlying platform; shown to users beside the binding's
 * status, e.g. for Kafka `{ partitions: 6, replicationFactor: 3, configs: {...}, records: 42 }`.
 */
export type BindingObservation = ResourceObservation;

/** What a connectivity probe of a cluster found; the registry shows it as the cluster's health. */
export interface ClusterProbe {
  /** How long the probe's round trip took. */
  latencyMs: number;
  /** Brokers (or nodes) the cluster reported, when the platform has such a notion. */
  brokerCount?: number;
  /** Provider-specific facts, e.g. the controller id or the cluster id. */
  details?: { [key: string]: JsonValue };
}

/** A network endpoint a cluster's config makes a provider connect to (see clusterEndpoints). */
export interface ClusterEndpoint {
  /** A host name or an IP address (IPv6 without brackets). */
  host: string;
  port: number;
  /** The config key that names it, from the maps: e.g. ["apache.kafka", "bootstrap.servers"]. */
  field: string[];
  /** What it is, for messages: e.g. "bootstrap server", "schema registry". */
  label?: string;
}

/** A binding as observe and delete name it: its stream on a cluster. */
export interface BindingTarget {
  streamName: string;
  cluster: ClusterTarget;
}

/** A binding's desired state, as a create or an update sends it. */
export interface BindingRequest extends BindingTarget {
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
  /**
   * Validates the config maps given for a cluster (DECLARE CLUSTER). A provider that can reach the
   * cluster probes it and returns what it found; an unreachable cluster is a retriable error.
   */
  validateCluster(
    clusterName: string,
    configMaps: ConfigMaps,
    context: OperationContext,
  ): Promise<ClusterProbe | void>;
  /**
   * Optional: every network endpoint a cluster with these config maps makes the provider connect
   * to (bootstrap servers, a schema registry's URL, ...). The registry checks them against its
   * allow-list (REGISTRY_CONNECT_ALLOW, docs/security.md) before validateCluster, so it must not
   * connect nor resolve anything itself; it is called with maps that passed the maps' `validate`.
   * A provider that connects nowhere returns []. While an allow-list is set, clusters of a provider
   * without this method cannot be declared (the registry cannot tell where they would connect).
   */
  clusterEndpoints?(configMaps: ConfigMaps): ClusterEndpoint[];
  /**
   * Probes a declared cluster's connectivity (called periodically for health). Throws a retriable
   * InfrastructureError when the cluster cannot be reached.
   */
  probeCluster(cluster: ClusterTarget, context: OperationContext): Promise<ClusterProbe>;
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
  /**
   * Optional: creates many bindings of one cluster with one request to the platform (for Kafka, one
   * CreateTopics). Each outcome, in the order of `requests`, is what `createStreamBinding` would
   * have given for that request alone: a refusal of one fails only that one, and a failure of the
   * whole call (the cluster unreachable) fails each with an error naming it. Anything thrown fails
   * them all alike. Providers without it get one call each.
   */
  createStreamBindings?(
    requests: readonly BindingRequest[],
    context: OperationContext,
  ): Promise<BatchOutcome<BindingObservation | void>[]>;
  /** Brings an existing binding to the given config maps. */
  updateStreamBinding(request: BindingRequest, context: OperationContext): Promise<BindingObservation | void>;
  /**
   * Observes a binding as it is now in the platform (for Kafka: partitions, replication, configs,
   * records); null when it does not exist there.
   */
  observeStreamBinding(
    streamName: string,
    cluster: ClusterTarget,
    context: OperationContext,
  ): Promise<BindingObservation | null>;
  /** Deletes the binding; deleting one that is already gone is success. */
  deleteStreamBinding(streamName: string, cluster: ClusterTarget, context: OperationContext): Promise<void>;
  /**
   * Optional: deletes many bindings of one cluster with as few requests to the platform as it can
   * (for Kafka, one DeleteTopics). Each outcome, in the order of `bindings`, is what
   * `deleteStreamBinding` would have given for that binding alone: one already gone is success, a
   * refusal of one fails only that one, and a failure of the whole call (the cluster unreachable)
   * fails each with an error naming it. Anything thrown fails them all alike. Providers without it
   * get one call each.
   */
  deleteStreamBindings?(
    bindings: readonly BindingTarget[],
    context: OperationContext,
  ): Promise<BatchOutcome<void>[]>;
}

/** Every method a StreamInfrastructureManager has: what the registry and the conformance suite check. */
export const INFRASTRUCTURE_METHODS = [
  "validateCluster",
  "probeCluster",
  "validateStream",
  "createStreamBinding",
  "updateStreamBinding",
  "observeStreamBinding",
  "deleteStreamBinding",
] as const satisfies readonly (keyof StreamInfrastructureManager)[];

/** Bindings as every realized kind is managed: created and updated by request, named by target. */
export type BindingManager = ResourceManager<BindingRequest, BindingObservation, BindingTarget>;

/**
 * A provider's bindings on the one shape of every realized kind: its infrastructure keeps the
 * seed's method names (`createStreamBinding`, ...), and the registry's binding handler and the
 * conformance suite drive them through this. The batch calls are there when the provider has them.
 */
export function bindingManager(infrastructure: StreamInfrastructureManager): BindingManager {
  const manager: BindingManager = {
    create: (request, context) => infrastructure.createStreamBinding(request, context),
    update: (request, context) => infrastructure.updateStreamBinding(request, context),
    observe: ({ streamName, cluster }, context) =>
      infrastructure.observeStreamBinding(streamName, cluster, context),
    remove: ({ streamName, cluster }, context) =>
      infrastructure.deleteStreamBinding(streamName, cluster, context),
  };
  const { createStreamBindings, deleteStreamBindings } = infrastructure;
  if (createStreamBindings) {
    manager.createMany = (requests, context) => createStreamBindings.call(infrastructure, requests, context);
  }
  if (deleteStreamBindings) {
    manager.removeMany = (targets, context) => deleteStreamBindings.call(infrastructure, targets, context);
  }
  return manager;
}
