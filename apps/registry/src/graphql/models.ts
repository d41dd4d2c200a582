import type { Binding, Cluster, ConfigMaps, ObservedConnectorState, Stream } from "@stream-registry/core";
import type { ApiTokenRecord, Change, ChildRegistry, ConnectorOnCluster } from "@stream-registry/store";
import type { StoredGrant } from "@stream-registry/store";
import type { PublicParentLink } from "../services/parent-service.ts";
import type { ConnectionModel } from "./connection.ts";

/** What resolvers hand each other: core's domain types (and change-log rows), resolved field by field. */
export type ClusterModel = Cluster;
export type StreamModel = Stream;
export type BindingModel = Binding;
export type ChangeModel = Change;
export type { ClusterHealthModel } from "../health/cluster-health.ts";
export type { BindingObservation as BindingObservationModel } from "@stream-registry/core";
export interface NamespaceModel {
  path: string;
}
/** A status block of any realized kind (a binding, the link to the parent). */
export type ResourceStatusModel = Pick<
  Binding,
  "phase" | "generation" | "observedGeneration" | "message" | "statusUpdatedAt"
>;
/** The link as clients see it: its token and credential are never handed to a resolver. */
export type ParentRegistryModel = PublicParentLink;
export type ChildRegistryModel = ChildRegistry;
/** A token as stored: its hash never reaches a resolver. */
export type ApiTokenModel = ApiTokenRecord;
export interface EffectiveConfigModel {
  stream: string;
  cluster: string;
  isDefault: boolean;
  config: ConfigMaps;
  producerConfig: ConfigMaps;
  consumerConfig: ConfigMaps;
}
export type ClusterConnectionModel = ConnectionModel<ClusterModel>;
export type StreamConnectionModel = ConnectionModel<StreamModel>;
export type BindingConnectionModel = ConnectionModel<BindingModel>;
export type ChangeConnectionModel = ConnectionModel<ChangeModel>;
/** A grant as kept: its scope below this registry's namespace, shown absolute by its resolver. */
export type GrantModel = StoredGrant;
export type GrantConnectionModel = ConnectionModel<GrantModel>;
/** A stream source or sink with its cluster (one model for both). */
export type ConnectorModel = ConnectorOnCluster;
export type ConnectorConnectionModel = ConnectionModel<ConnectorModel>;
/** What the provider last saw of a source or sink, with the registry's automatic restarts. */
export interface ConnectorObservationModel {
  state: ObservedConnectorState;
  tasks: {
    id: number;
    state: ObservedConnectorState;
    workerId?: string | null;
    error?: string | null;
  }[];
  error: string | null;
  autoRestarts: number;
  lastRestartAt: Date | null;
  message: string | null;
  observedAt: Date;
}
