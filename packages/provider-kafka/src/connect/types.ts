import type { ConnectorRole } from "@stream-registry/core";
import type { ConnectorType } from "@stream-registry/provider-api";

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
 * connectors, each by its friendly name. A documented name is its class's; two other classes that
 * would share a name, or one that would take a documented name, are named by their class instead.
 * Sorted by name.
 */
export function typesOf(plugins: readonly ConnectPlugin[], role: ConnectorRole): ConnectorType[] {
  const offered = plugins.filter((plugin) => plugin.type === role && !NOT_OFFERED.test(plugin.class));
  const documented = new Set(offered.flatMap((plugin) => NAMED[plugin.class] ?? []));
  const derived = new Map<string, number>();
  for (const plugin of offered) {
    if (NAMED[plugin.class] === undefined) {
      const name = derivedName(plugin.class);
      derived.set(name, (derived.get(name) ?? 0) + 1);
    }
  }
  const nameOf = (plugin: ConnectPlugin) => {
    const named = NAMED[plugin.class];
    if (named !== undefined) return named;
    const name = derivedName(plugin.class);
    return documented.has(name) || derived.get(name)! > 1 ? plugin.class : name;
  };
  return offered
    .map((plugin) => ({
      name: nameOf(plugin),
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
