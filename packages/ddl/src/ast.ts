/**
 * Syntax tree of the Stream Registry DDL (the statements of seed 000, plus the extensions).
 * Every statement is a plain object discriminated on `kind`; config blocks are plain JSON values so a
 * client can hand them straight to GraphQL as variables.
 */

/** Where a node sits in the source: 1-based line/column of its first character, 0-based offsets. */
export interface Span {
  line: number;
  column: number;
  offset: number;
  /** Offset just past the node's last character (for `;`-terminated statements, past the `;`). */
  endOffset: number;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * A `{ ... }` config block: config-map name -> config map, e.g. `{ "apache.kafka": { "partitions": 10 } }`.
 * Keys keep their written order (except integer-like keys, which JavaScript objects sort first).
 */
export type ConfigBlock = JsonObject;

/** The optional config clauses shared by streams and bindings. Absent clause = property undefined. */
export interface ConfigClauses {
  config?: ConfigBlock;
  producerConfig?: ConfigBlock;
  consumerConfig?: ConfigBlock;
}

/** The body of `REGISTER ... SCHEMA ( ... )`: a file reference or an inline JSON schema. */
export type SchemaSource =
  { kind: "file"; path: string; span: Span } | { kind: "inline"; schema: InlineSchema; span: Span };

/** An inline schema is JSON as Avro writes it: a string (`"string"`), an object, or an array (a union). */
export type InlineSchema = string | JsonObject | JsonValue[];

/** The schema formats a schema registry knows (`AS PROTOBUF`); the names of GraphQL's SchemaType. */
export type SchemaType = "AVRO" | "JSON" | "PROTOBUF";

/** Fields every statement node has. */
export interface Node<K extends string> {
  kind: K;
  span: Span;
}

// Namespaces and clusters
export type ShowNamespace = Node<"showNamespace">;
/** This registry's namespace, its parent link and its child registries. */
export type ShowNamespaces = Node<"showNamespaces">;
export interface DeclareDefaultNamespace extends Node<"declareDefaultNamespace"> {
  namespace: string;
}
export interface DeclareParentRegistry extends Node<"declareParentRegistry"> {
  url: string;
  /**
   * The parent's enrollment token (its REGISTRY_ENROLLMENT_TOKEN): a secret. print() writes it so
   * a statement round-trips; whoever shows a statement to people must leave it out.
   */
  token: string;
}
/** Unregisters from the parent: the registry becomes the root of its own tree. */
export type DropParentRegistry = Node<"dropParentRegistry">;
/** This registry's child registries, suspended ones too (for admins). */
export type ShowChildRegistries = Node<"showChildRegistries">;
/** SUSPEND / RESUME / DROP CHILD REGISTRY "<path>": a child named by its namespace (absolute). */
export interface SuspendChildRegistry extends Node<"suspendChildRegistry"> {
  path: string;
}
export interface ResumeChildRegistry extends Node<"resumeChildRegistry"> {
  path: string;
}
export interface DropChildRegistry extends Node<"dropChildRegistry"> {
  path: string;
}
export interface DeclareCluster extends Node<"declareCluster"> {
  cluster: string;
  /** Provider kind, e.g. "kafka"; undefined = the registry's default provider. */
  provider?: string;
  config?: ConfigBlock;
}

// Streams
export interface CreateStream extends Node<"createStream">, ConfigClauses {
  stream: string;
}
export interface UpdateStream extends Node<"updateStream">, ConfigClauses {
  stream: string;
}
export interface DeleteStream extends Node<"deleteStream"> {
  stream: string;
  cascade: boolean;
}

// Bindings
export interface CreateBinding extends Node<"createBinding">, ConfigClauses {
  stream: string;
  cluster: string;
}
export interface UpdateBinding extends Node<"updateBinding">, ConfigClauses {
  stream: string;
  cluster: string;
}
export interface DeleteBinding extends Node<"deleteBinding"> {
  stream: string;
  cluster: string;
}
export interface DescribeBindings extends Node<"describeBindings"> {
  stream: string;
}

// Schemas
export interface RegisterKeySchema extends Node<"registerKeySchema"> {
  stream: string;
  schema: SchemaSource;
  /** `AS <type>`; absent: the FILE's extension says, and an inline schema is Avro. */
  schemaType?: SchemaType;
}
export interface RegisterTypeSchema extends Node<"registerTypeSchema"> {
  /** The type (record) name; the subject is `<stream>-<typeName>`. */
  typeName: string;
  stream: string;
  schema: SchemaSource;
  /** `AS <type>`; absent: the FILE's extension says, and an inline schema is Avro. */
  schemaType?: SchemaType;
}

// Sources and sinks
export interface ShowSourceTypes extends Node<"showSourceTypes"> {
  cluster: string;
}
export interface ShowSinkTypes extends Node<"showSinkTypes"> {
  cluster: string;
}
export interface CreateStreamSource extends Node<"createStreamSource"> {
  source: string;
  type: string;
  config?: ConfigBlock;
  cluster: string;
}
export interface DescribeStreamSource extends Node<"describeStreamSource"> {
  source: string;
}
export interface UpdateStreamSource extends Node<"updateStreamSource"> {
  source: string;
  config: ConfigBlock;
}
export interface DeleteStreamSource extends Node<"deleteStreamSource"> {
  source: string;
}
export interface CreateStreamSink extends Node<"createStreamSink"> {
  sink: string;
  type: string;
  config?: ConfigBlock;
  cluster: string;
}
export interface DescribeStreamSink extends Node<"describeStreamSink"> {
  sink: string;
}
export interface UpdateStreamSink extends Node<"updateStreamSink"> {
  sink: string;
  config: ConfigBlock;
}
export interface DeleteStreamSink extends Node<"deleteStreamSink"> {
  sink: string;
}
/** SHOW STREAM SOURCES [LIKE "p"]: the sources of the registry's subtree, as SHOW STREAMS lists streams. */
export interface ShowStreamSources extends Node<"showStreamSources"> {
  /** SQL LIKE pattern on the source's name; undefined = all. */
  like?: string;
}
export interface ShowStreamSinks extends Node<"showStreamSinks"> {
  like?: string;
}
/** PAUSE / RESUME / STOP STREAM SOURCE "x": the run state the registry keeps and realizes. */
export interface PauseStreamSource extends Node<"pauseStreamSource"> {
  source: string;
}
export interface ResumeStreamSource extends Node<"resumeStreamSource"> {
  source: string;
}
export interface StopStreamSource extends Node<"stopStreamSource"> {
  source: string;
}
/** RESTART STREAM SOURCE "x" [ONLY FAILED]: restarts it and its tasks, or only what has failed. */
export interface RestartStreamSource extends Node<"restartStreamSource"> {
  source: string;
  onlyFailed: boolean;
}
export interface PauseStreamSink extends Node<"pauseStreamSink"> {
  sink: string;
}
export interface ResumeStreamSink extends Node<"resumeStreamSink"> {
  sink: string;
}
export interface StopStreamSink extends Node<"stopStreamSink"> {
  sink: string;
}
export interface RestartStreamSink extends Node<"restartStreamSink"> {
  sink: string;
  onlyFailed: boolean;
}

// Replication
/** `REPLICATE BINDING "<sourceCluster>/<stream>" [FROM NAMESPACE "<namespace>"] TO CLUSTER "<cluster>"`. */
export interface ReplicateBinding extends Node<"replicateBinding"> {
  sourceCluster: string;
  stream: string;
  /** Remote namespace of the source binding; undefined = the current namespace. */
  namespace?: string;
  /** Target cluster (local). */
  cluster: string;
}
export interface ShowReplications extends Node<"showReplications"> {
  /** undefined = every replication in the current namespace. */
  cluster?: string;
}

// Relocation
export interface CreateStreamRelocation extends Node<"createStreamRelocation"> {
  stream: string;
  fromCluster: string;
  toCluster: string;
}
export interface DescribeStreamRelocation extends Node<"describeStreamRelocation"> {
  stream: string;
  fromCluster: string;
}
export interface DeleteStreamRelocation extends Node<"deleteStreamRelocation"> {
  stream: string;
  fromCluster: string;
}

// Discovery
export interface ShowStreams extends Node<"showStreams"> {
  /** SQL LIKE pattern (`%` any run, `_` one character); undefined = all streams. */
  like?: string;
}
export type ShowClusters = Node<"showClusters">;
export interface DescribeStream extends Node<"describeStream"> {
  stream: string;
}

// Authentication
/** CREATE TOKEN: an API token for automation; the registry shows its value once. */
export interface CreateToken extends Node<"createToken"> {
  token: string;
  /** Groups it is a member of (grants may name them); undefined: none. */
  groups?: string[];
  /** undefined: it does not expire. */
  expiresInDays?: number;
}
export interface RevokeToken extends Node<"revokeToken"> {
  token: string;
}
/** This registry's API tokens, without their values. */
export type ShowTokens = Node<"showTokens">;
/** A new signing key for the tokens this registry sends the registries of its tree. */
export type RotateRegistryKey = Node<"rotateRegistryKey">;

// Authorization
/** A grant's role, as the API takes it. */
export type GrantRole = "reader" | "writer" | "admin";
/**
 * GRANT <role> [ON NAMESPACE "<path>"] [STREAMS "<prefix>"] TO <USER|GROUP|TOKEN> "<name>": who may
 * do what where (docs/security.md).
 */
export interface GrantStatement extends Node<"grant"> {
  role: GrantRole;
  /** The namespace the grant covers (absolute); undefined: the registry's own. */
  namespace?: string;
  /** Only streams whose names start with it (and their bindings); undefined: every stream. */
  streamPrefix?: string;
  /** As the API names it: "user:<sub>", "group:<name>" or "token:<name>". */
  principal: string;
}
/** REVOKE <role> [ON NAMESPACE ...] [STREAMS ...] FROM ...: the grant GRANT with the same clauses gave. */
export interface RevokeStatement extends Omit<GrantStatement, "kind"> {
  kind: "revoke";
}
/** SHOW GRANTS [ON NAMESPACE "<path>"] [FOR <USER|GROUP|TOKEN> "<name>"]. */
export interface ShowGrants extends Node<"showGrants"> {
  namespace?: string;
  principal?: string;
}

export type Statement =
  | ShowNamespace
  | ShowNamespaces
  | DeclareDefaultNamespace
  | DeclareParentRegistry
  | DropParentRegistry
  | ShowChildRegistries
  | SuspendChildRegistry
  | ResumeChildRegistry
  | DropChildRegistry
  | DeclareCluster
  | CreateStream
  | UpdateStream
  | DeleteStream
  | CreateBinding
  | UpdateBinding
  | DeleteBinding
  | DescribeBindings
  | RegisterKeySchema
  | RegisterTypeSchema
  | ShowSourceTypes
  | ShowSinkTypes
  | CreateStreamSource
  | DescribeStreamSource
  | UpdateStreamSource
  | DeleteStreamSource
  | CreateStreamSink
  | DescribeStreamSink
  | UpdateStreamSink
  | DeleteStreamSink
  | ShowStreamSources
  | ShowStreamSinks
  | PauseStreamSource
  | ResumeStreamSource
  | StopStreamSource
  | RestartStreamSource
  | PauseStreamSink
  | ResumeStreamSink
  | StopStreamSink
  | RestartStreamSink
  | ReplicateBinding
  | ShowReplications
  | CreateStreamRelocation
  | DescribeStreamRelocation
  | DeleteStreamRelocation
  | ShowStreams
  | ShowClusters
  | DescribeStream
  | CreateToken
  | RevokeToken
  | ShowTokens
  | RotateRegistryKey
  | GrantStatement
  | RevokeStatement
  | ShowGrants;

export type StatementKind = Statement["kind"];
/** The statement node of one kind: `StatementOf<"createStream">` is `CreateStream`. */
export type StatementOf<K extends StatementKind> = Extract<Statement, { kind: K }>;
