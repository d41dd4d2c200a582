import type { ConfigMaps } from "@stream-registry/core";
import type { ClusterTarget, OperationContext } from "./operation.ts";
import type { ResourceManager, ResourceObservation } from "./resource-manager.ts";

/**
 * A stream source or sink as observe and remove name it: by convention its name is the name of
 * the stream it writes (a source) or reads (a sink), which must be bound on `cluster`.
 */
export interface ConnectorTarget {
  name: string;
  cluster: ClusterTarget;
}

/**
 * A source's or sink's desired state, as a create or an update sends it: the seed's StreamSource /
 * StreamSink DTO without its status, which the registry keeps (the kernel owns phases).
 */
export interface ConnectorRequest extends ConnectorTarget {
  /** One of the types the manager lists for the cluster, e.g. "s3". */
  type: string;
  configMaps: ConfigMaps;
}

/** What a provider saw of a source or sink on its platform (e.g. a Connect connector's tasks). */
export type ConnectorObservation = ResourceObservation;

/** Sources and sinks are managed alike: ResourceManager, plus the types a cluster offers. */
export type ConnectorManager = ResourceManager<ConnectorRequest, ConnectorObservation, ConnectorTarget>;

/**
 * The seed's StreamSourceManager on the shape of every realized kind: its createStreamSource is
 * `create`, getStreamSource `observe` (null when absent), updateStreamSource `update` and
 * deleteStreamSource `remove`. Failures are thrown as StreamSourceError.
 */
export interface StreamSourceManager extends ConnectorManager {
  /** The source types the cluster offers (SHOW SOURCE TYPES FOR CLUSTER). */
  getSourceTypes(cluster: ClusterTarget, context: OperationContext): Promise<string[]>;
}

/**
 * The seed's StreamSinkManager, mapped as StreamSourceManager is: exports one stream to a data
 * store. Failures are thrown as StreamSinkError.
 */
export interface StreamSinkManager extends ConnectorManager {
  /** The sink types the cluster offers (SHOW SINK TYPES FOR CLUSTER). */
  getSinkTypes(cluster: ClusterTarget, context: OperationContext): Promise<string[]>;
}
