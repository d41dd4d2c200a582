import { ApiTokenService } from "../auth/api-token-service.ts";
import { createSchemaRegistry, type SchemaRegistry } from "../schema-registry/schema-registry.ts";
import { SchemaSubjects } from "../schema-registry/schema-subjects.ts";
import { StreamSchemas } from "../schema-registry/stream-schemas.ts";
import type { ClusterPresets } from "../cluster-presets.ts";
import type { FlowPoller } from "../flow/flow-poller.ts";
import type { RegistryIdentity } from "../identity.ts";
import { BindingService } from "./binding-service.ts";
import { Catalog } from "./catalog.ts";
import { ChangeFeed } from "./change-feed.ts";
import { ClusterService } from "./cluster-service.ts";
import { ConnectorService } from "./connector-service.ts";
import type { ConnectGuard } from "./connect-guard.ts";
import { DiscoveryIndex } from "./discovery-index-service.ts";
import { GrantService } from "./grant-service.ts";
import type { ServiceDeps } from "./deps.ts";
import { HealthService } from "./health-service.ts";
import { ChildAdminService } from "./child-admin-service.ts";
import { ChildRegistryService, type SelfDescription } from "./child-registry-service.ts";
import { NamespaceService } from "./namespace-service.ts";
import { ParentService } from "./parent-service.ts";
import { StreamService } from "./stream-service.ts";

export interface Services {
  clusters: ClusterService;
  streams: StreamService;
  bindings: BindingService;
  /** Stream sources and sinks: one service each over one code path. */
  sources: ConnectorService;
  sinks: ConnectorService;
  catalog: Catalog;
  /** The change log as a list, whose empty pages may wait for an entry (a parent follows it). */
  changeFeed: ChangeFeed;
  health: HealthService;
  namespaces: NamespaceService;
  parent: ParentService;
  children: ChildRegistryService;
  /** SHOW / SUSPEND / RESUME / DROP CHILD REGISTRY, for admins. */
  childAdmin: ChildAdminService;
  index: DiscoveryIndex;
  grants: GrantService;
  tokens: ApiTokenService;
  /** The built-in schema registry (issue 12). */
  schemas: SchemaRegistry;
  /** A stream's key and type schemas, in the schema registry its schemas go to. */
  streamSchemas: StreamSchemas;
  /** Subjects by name: reads, levels, checks, deletes (GraphQL). */
  schemaSubjects: SchemaSubjects;
  /** Data in flight as the background poller last read it (flow/flow-poller.ts). */
  flow: FlowReadings;
}

/** The poller's last reading of each binding, and of each source's and sink's; null before its first. */
export type FlowReadings = Pick<FlowPoller, "of" | "connector">;

export function createServices(
  deps: ServiceDeps,
  options: {
    identity: RegistryIdentity;
    /** REGISTRY_OIDC_ISSUER: its users are this registry's own (grants name them unqualified). */
    oidcIssuer?: string | undefined;
    self: SelfDescription;
    enrollmentToken?: string | undefined;
    healthIntervalMs?: number;
    clusterPresets?: ClusterPresets;
    /** REGISTRY_CONNECT_ALLOW: where callers may make the registry connect; none: anywhere. */
    connect?: ConnectGuard;
    /** Called when a token is revoked: verifiers forget what they kept of it. */
    onTokenRevoked?: () => void;
    /** The data-in-flight poller's readings; none: every binding's flow is null. */
    flow?: FlowReadings;
  },
): Services {
  const parent = new ParentService(deps, options.identity, options.self, options.connect);
  const schemas = createSchemaRegistry(deps);
  const streamSchemas = new StreamSchemas(deps, schemas);
  const children = new ChildRegistryService(
    deps,
    options.identity,
    options.self,
    options.enrollmentToken,
    options.connect,
  );
  return {
    clusters: new ClusterService(deps, options.clusterPresets, options.connect),
    streams: new StreamService(deps),
    bindings: new BindingService(deps),
    sources: new ConnectorService(deps, "source"),
    sinks: new ConnectorService(deps, "sink"),
    catalog: new Catalog(deps),
    changeFeed: new ChangeFeed(deps),
    health: new HealthService(options.healthIntervalMs ?? 0),
    namespaces: new NamespaceService(deps, options.identity, parent),
    parent,
    children,
    childAdmin: new ChildAdminService(deps, children),
    index: new DiscoveryIndex(deps),
    grants: new GrantService(deps, () => options.identity.lineage(options.oidcIssuer)),
    tokens: new ApiTokenService(deps.db, options.onTokenRevoked ?? (() => {})),
    schemas,
    streamSchemas,
    schemaSubjects: new SchemaSubjects(streamSchemas),
    flow: options.flow ?? { of: () => null, connector: () => null },
  };
}
