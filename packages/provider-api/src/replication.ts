import type { ClusterTarget, OperationContext } from "./operation.ts";
import type { ResourceManager, ResourceObservation } from "./resource-manager.ts";

/**
 * A replication of a remote stream onto `cluster`, as every call names it: its replica there is
 * the binding "<remoteCluster>/<remoteStream>" (prefixed with the remote namespace when it is not
 * the local one).
 */
export interface ReplicationRequest {
  cluster: ClusterTarget;
  remoteCluster: ClusterTarget;
  remoteStream: string;
  /** The remote namespace; equal to the local one for intra-namespace replication. */
  remoteNamespace: string;
}

/** What a provider saw of a replication on its platform (e.g. a mirror's lag). */
export type ReplicationObservation = ResourceObservation;

/**
 * The seed's StreamReplicationManager on the shape of every realized kind: createReplication is
 * `create`, getReplication `observe` (null when absent) and deleteReplication `remove`; `update`
 * brings an existing replication back to its request. The seed's listReplications is the
 * registry's to answer, from the replications it realizes and the phases its kernel keeps.
 * Failures are thrown as StreamReplicationError.
 */
export type StreamReplicationManager = ResourceManager<ReplicationRequest, ReplicationObservation>;

/** The seed's relocation states, in order. */
export type RelocationStatus =
  | "REPLICATION_PENDING"
  | "REPLICATION_COMPLETE"
  | "CONSUMERS_MIGRATING"
  | "CONSUMERS_COMPLETE"
  | "PRODUCERS_MIGRATING"
  | "PRODUCERS_COMPLETE"
  | "REPLICATION_DELETE_PENDING"
  | "REPLICATION_DELETED"
  | "BINDING_DELETE_PENDING"
  | "BINDING_DELETED";

export interface StreamRelocation {
  stream: string;
  sourceCluster: string;
  targetCluster: string;
  status: RelocationStatus;
}

/** The seed's StreamRelocationManager. Failures are thrown as StreamRelocationError. */
export interface StreamRelocationManager {
  getRelocations(sourceCluster: ClusterTarget, context: OperationContext): Promise<StreamRelocation[]>;
  getRelocation(
    stream: string,
    sourceCluster: ClusterTarget,
    context: OperationContext,
  ): Promise<StreamRelocation | undefined>;
  createRelocation(
    stream: string,
    sourceCluster: ClusterTarget,
    targetCluster: ClusterTarget,
    context: OperationContext,
  ): Promise<StreamRelocation>;
  deleteRelocation(
    stream: string,
    sourceCluster: ClusterTarget,
    context: OperationContext,
  ): Promise<StreamRelocation | undefined>;
}
