import type { ConnectorType } from "@stream-registry/provider-api";

/** Which manager: sources write their stream, sinks read it. */
export type ConnectorRole = "source" | "sink";

/** A plugin as `GET /connector-plugins?connectorsOnly=true` lists it. */
export interface ConnectPlugin {
  class: string;
  type: string;
  version?: string;
}

/**
 * Friendly names of the connectors this project documents (docs/connect.md). Any other connector
 * class is named by the derived rule (`derivedName`).
 */
const NAMED: Record<string, string> = {
  "org.apache.kafka.connect.file.FileStreamSourceConnector": "file",
  "org.apache.kafka.connect.file.FileStreamSinkConnector": "file",
  "io.debezium.connector.postgresql.PostgresConnector": "postgres",
  "io.debezium.connector.jdbc.JdbcSinkConnector": "jdbc",
};

/** MirrorMaker 2's connectors replicate clusters (issue 23): they are not sources or sinks of a stream. */
const NOT_OFFERED = /^org\.apache\.kafka\.connect\.mirror\./;

/**
 * The derived name of a connector class: its simple name, lower case, without a trailing
 * "Connector" and then "Source" or "Sink" ("io.debezium.connector.mysql.MySqlConnector" is
 * "mysql", "com.acme.S3SinkConnector" is "s3").
 */
export function derivedName(className: string): string {
  const simple = className.slice(className.lastIndexOf(".") + 1);
  const name = simple.replace(/Connector$/, "").replace(/(Source|Sink)$/, "");
  return (name === "" ? simple : name).toLowerCase();
}

/**
 * The types a worker's plugins offer to one role: sources from source connectors, sinks from sink
 * connectors, each by its friendly name; two classes that would share a name are each named by
 * their class instead. Sorted by name.
 */
export function typesOf(plugins: readonly ConnectPlugin[], role: ConnectorRole): ConnectorType[] {
  const offered = plugins.filter((plugin) => plugin.type === role && !NOT_OFFERED.test(plugin.class));
  const nameOf = (plugin: ConnectPlugin) => NAMED[plugin.class] ?? derivedName(plugin.class);
  const counts = new Map<string, number>();
  for (const plugin of offered) counts.set(nameOf(plugin), (counts.get(nameOf(plugin)) ?? 0) + 1);
  return offered
    .map((plugin) => ({
      name: counts.get(nameOf(plugin))! > 1 ? plugin.class : nameOf(plugin),
      class: plugin.class,
      ...(plugin.version !== undefined && { version: plugin.version }),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The type a request names: by its friendly name, or by its class. */
export function findType(types: readonly ConnectorType[], name: string): ConnectorType | undefined {
  return types.find((type) => type.name === name) ?? types.find((type) => type.class === name);
}

/** Whether a type is Connect's file connector (its topic key is `topic`, not a routing transform). */
export const isFileSource = (type: ConnectorType): boolean =>
  type.class === "org.apache.kafka.connect.file.FileStreamSourceConnector";

/** Debezium's connectors need a topic.prefix; the registry gives the stream's name unless the user does. */
export const needsTopicPrefix = (type: ConnectorType): boolean =>
  type.class.startsWith("io.debezium.connector.");
