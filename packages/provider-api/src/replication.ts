import type { Phase } from "@stream-registry/core";
import type { ClusterTarget, OperationContext } from "./infrastructure.ts";

/** The seed's StreamReplication DTO: `topic` is the replica's binding name, e.g. "cluster001/widgets_v0". */
export interface StreamReplication {
  cluster: string;
  topic: string;
  status: Phase;
}

export interface ReplicationRequest {
  cluster: ClusterTarget;
  remoteCluster: ClusterTarget;
  remoteStream: string;
  /** The remote namespace; equal to the local one for intra-namespace replication. */
  remoteNamespace: string;
}

/** The seed's StreamReplicationManager. Failures are thrown as StreamReplicationError. */
export interface StreamReplicationManager {
  listReplications(
    cluster: ClusterTarget | undefined,
    context: OperationContext,
  ): Promise<StreamReplication[]>;
  createReplication(request: ReplicationRequest, context: OperationContext): Promise<StreamReplication>;
  getReplication(
    request: ReplicationRequest,
    context: OperationContext,
  ): Promise<StreamReplication | undefined>;
  deleteReplication(
    request: ReplicationRequest,
    context: OperationContext,
  ): Promise<StreamReplication | undefined>;
}

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
