/**
 * The kinds of entity a tree of registries lists, routes and indexes: one row each, read by the
 * change feed's readers, the discovery index (its rows, filters and pages), the documents a parent
 * asks its children for, the routed look-ups and the subtree lists. A new kind is a row here, its
 * types in schema.graphql, its resolvers, and its store writes recording change-log entries of its
 * kind (docs/architecture.md, "Adding a kind").
 */
export interface EntityKind {
  /** Its entity type in the change feed and its rows' kind in the discovery index: "stream". */
  readonly kind: string;
  /** Its GraphQL type, resolved by `_entities`: "Stream". */
  readonly typename: string;
  /** The query field that lists it over a registry's subtree ("streams"), and its filter input. */
  readonly list: string;
  readonly filter: string;
  /** The query field that looks one up by `namespace`, routed to the registry that owns it. */
  readonly lookUp: string;
  /**
   * How it is named across the tree (its `@key`): by namespace and name, its feed entries' key its
   * name; or by fqn (namespace, cluster and stream), its feed entries' key the fqn, its index row's
   * name the stream's and its cluster the cluster's.
   */
  readonly key: "name" | "fqn";
  /** Whether its index row's name is a stream's, so that a principal's stream prefix narrows it. */
  readonly namedByStream: boolean;
  /**
   * Fields its document leaves out: their values change without a change of the entity (a
   * stream's schemas live in a schema registry), so an indexed copy would go stale. A parent asks
   * the owner for them live.
   */
  readonly unindexed: readonly string[];
}

/** The table (a test adds a kind of its own by mocking this module with one more row). */
export const ENTITY_KINDS = [
  {
    kind: "stream",
    typename: "Stream",
    list: "streams",
    filter: "StreamFilter",
    lookUp: "stream",
    key: "name",
    namedByStream: true,
    unindexed: ["keySchema", "typeSchemas", "serializerSubjects"],
  },
  {
    kind: "cluster",
    typename: "Cluster",
    list: "clusters",
    filter: "ClusterFilter",
    lookUp: "cluster",
    key: "name",
    namedByStream: false,
    unindexed: [],
  },
  {
    kind: "binding",
    typename: "Binding",
    list: "bindings",
    filter: "BindingFilter",
    lookUp: "binding",
    key: "fqn",
    namedByStream: true,
    // Data in flight changes with every poll, not with the binding: its owner answers it.
    unindexed: ["flow"],
  },
  // Sources and sinks are named by the stream they write or read. Their cluster and binding are
  // other entities, which their documents do not name, and their data in flight changes with every
  // poll: the owner answers them live.
  {
    kind: "source",
    typename: "StreamSource",
    list: "sources",
    filter: "StreamSourceFilter",
    lookUp: "source",
    key: "name",
    namedByStream: true,
    unindexed: ["cluster", "binding", "flow"],
  },
  {
    kind: "sink",
    typename: "StreamSink",
    list: "sinks",
    filter: "StreamSinkFilter",
    lookUp: "sink",
    key: "name",
    namedByStream: true,
    unindexed: ["cluster", "binding", "flow"],
  },
] as const satisfies readonly EntityKind[];

/** The entity types of the table ("stream"): an index row's kind. */
export type EntityKindName = (typeof ENTITY_KINDS)[number]["kind"];
