// Connector configs for a testkit worker, created directly on Connect (PUT /connectors/{name}/config)
// by the testkit's own tests and the bench, and the shapes the registry's end-to-end tests realize.

/** A connector's config as Connect takes it: every value a string. */
export type ConnectorConfig = Record<string, string>;

/** Connector classes as GET /connector-plugins lists them. */
export const connectorClasses = {
  fileSource: "org.apache.kafka.connect.file.FileStreamSourceConnector",
  fileSink: "org.apache.kafka.connect.file.FileStreamSinkConnector",
  debeziumPostgres: "io.debezium.connector.postgresql.PostgresConnector",
  debeziumJdbc: "io.debezium.connector.jdbc.JdbcSinkConnector",
} as const;

/** The brokers do not create topics on their own: a source connector creates its topic (one partition). */
const createsItsTopic: ConnectorConfig = {
  "topic.creation.default.replication.factor": "1",
  "topic.creation.default.partitions": "1",
};

const plainStrings: ConnectorConfig = {
  "key.converter": "org.apache.kafka.connect.storage.StringConverter",
  "value.converter": "org.apache.kafka.connect.storage.StringConverter",
};

/** FileStreamSource: each line of `file` becomes a record (a string) in `topic`. */
export function fileSourceConfig({ file, topic }: { file: string; topic: string }): ConnectorConfig {
  return {
    "connector.class": connectorClasses.fileSource,
    "tasks.max": "1",
    file,
    topic,
    ...plainStrings,
    ...createsItsTopic,
  };
}

/** FileStreamSink: each record of `topic` becomes a line of `file`, in order. */
export function fileSinkConfig({ file, topic }: { file: string; topic: string }): ConnectorConfig {
  return {
    "connector.class": connectorClasses.fileSink,
    "tasks.max": "1",
    file,
    topics: topic,
    ...plainStrings,
  };
}

/** Where a connector reaches a PostgreSQL: `LogicalPostgres` has these fields. */
export interface PostgresEndpoint {
  host: string;
  port: number;
  user: string;
  password: string;
}

export interface DebeziumPostgresSource {
  postgres: PostgresEndpoint;
  database: string;
  /** Captured tables, "schema.table" (Debezium's table.include.list). */
  tables: readonly string[];
  /** The one topic every change event lands in: a stream's name. */
  topic: string;
  /**
   * Names the replication slot and publication (lower-case letters, digits, "_"); one per connector,
   * so connectors on one server never share a slot. Also Debezium's topic.prefix before routing.
   */
  slot: string;
}

/**
 * Debezium's PostgreSQL source through pgoutput (built into PostgreSQL 10+): a snapshot of the tables,
 * then their changes, every event routed to ONE topic (RegexRouter rewrites Debezium's
 * `<prefix>.<schema>.<table>` topic names to `topic`). Events keep Debezium's envelope (before, after,
 * source, op) with JSON schemas, which the JDBC sink reads as they are.
 */
export function debeziumPostgresSourceConfig({ topic, ...capture }: DebeziumPostgresSource): ConnectorConfig {
  return {
    "connector.class": connectorClasses.debeziumPostgres,
    "tasks.max": "1",
    ...debeziumPostgresCapture(capture),
    "topic.prefix": capture.slot,
    transforms: "route",
    "transforms.route.type": "org.apache.kafka.connect.transforms.RegexRouter",
    "transforms.route.regex": ".*",
    "transforms.route.replacement": topic,
    ...createsItsTopic,
  };
}

/**
 * What Debezium's PostgreSQL source captures and from where (pgoutput, a slot and a publication named
 * `slot`): the map a registry's "postgres" source is given as its "postgres-source", the registry
 * adding the class and the routing to its stream's topic.
 */
export function debeziumPostgresCapture({
  postgres,
  database,
  tables,
  slot,
}: Omit<DebeziumPostgresSource, "topic">): ConnectorConfig {
  if (!/^[a-z0-9_]+$/.test(slot))
    throw new Error(`slot: lower-case letters, digits and "_" only, got "${slot}"`);
  return {
    "database.hostname": postgres.host,
    "database.port": String(postgres.port),
    "database.user": postgres.user,
    "database.password": postgres.password,
    "database.dbname": database,
    "plugin.name": "pgoutput",
    "slot.name": slot,
    "publication.name": slot,
    "publication.autocreate.mode": "filtered",
    "table.include.list": tables.join(","),
  };
}

export interface DebeziumJdbcWrite {
  postgres: PostgresEndpoint;
  database: string;
  /** The table written ("schema.table" or a bare name), created from the events' schema if missing. */
  table: string;
}

/**
 * Where and how Debezium's JDBC sink writes into PostgreSQL: upserts by the record key into `table`,
 * creating the table (and new columns) from the events' schema. The map a registry's "jdbc" sink is
 * given as its "jdbc-sink", the registry adding the class and its stream's topic.
 */
export function debeziumJdbcWrite({ postgres, database, table }: DebeziumJdbcWrite): ConnectorConfig {
  return {
    "connection.url": `jdbc:postgresql://${postgres.host}:${postgres.port}/${database}`,
    "connection.username": postgres.user,
    "connection.password": postgres.password,
    "insert.mode": "upsert",
    "primary.key.mode": "record_key",
    "schema.evolution": "basic",
    "collection.name.format": table,
  };
}

export interface DebeziumJdbcSink extends DebeziumJdbcWrite {
  topic: string;
}

/**
 * Debezium's JDBC sink into PostgreSQL (debeziumJdbcWrite) reading Debezium change events from
 * `topic`, a delete event deleting the row.
 */
export function debeziumJdbcSinkConfig({ topic, ...write }: DebeziumJdbcSink): ConnectorConfig {
  return {
    "connector.class": connectorClasses.debeziumJdbc,
    "tasks.max": "1",
    topics: topic,
    ...debeziumJdbcWrite(write),
    "delete.enabled": "true",
  };
}
