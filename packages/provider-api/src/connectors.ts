import type { ConfigMaps, Phase } from "@stream-registry/core";
import type { ClusterTarget, OperationContext } from "./infrastructure.ts";

/** The seed's StreamSource / StreamSink DTO. */
export interface Connector {
  name: string;
  cluster: string;
  type: string;
  status: Phase;
  configMaps: ConfigMaps;
}

export interface ConnectorRequest {
  name: string;
  type: string;
  cluster: ClusterTarget;
  configMaps: ConfigMaps;
}

/**
 * The seed's StreamSourceManager. By convention a source's name is the name of the stream it
 * writes, which must be bound on the target cluster. Failures are thrown as StreamSourceError.
 */
export interface StreamSourceManager {
  getSourceTypes(cluster: ClusterTarget, context: OperationContext): Promise<string[]>;
  createStreamSource(request: ConnectorRequest, context: OperationContext): Promise<Connector>;
  getStreamSource(
    name: string,
    cluster: ClusterTarget,
    context: OperationContext,
  ): Promise<Connector | undefined>;
  updateStreamSource(request: ConnectorRequest, context: OperationContext): Promise<Connector>;
  deleteStreamSource(name: string, cluster: ClusterTarget, context: OperationContext): Promise<void>;
}

/**
 * The seed's StreamSinkManager: exports one stream to a data store. Failures are thrown as
 * StreamSinkError.
 */
export interface StreamSinkManager {
  getSinkTypes(cluster: ClusterTarget, context: OperationContext): Promise<string[]>;
  createStreamSink(request: ConnectorRequest, context: OperationContext): Promise<Connector>;
  getStreamSink(
    name: string,
    cluster: ClusterTarget,
    context: OperationContext,
  ): Promise<Connector | undefined>;
  updateStreamSink(request: ConnectorRequest, context: OperationContext): Promise<Connector>;
  deleteStreamSink(name: string, cluster: ClusterTarget, context: OperationContext): Promise<void>;
}
