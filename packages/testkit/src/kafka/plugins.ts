import { join } from "node:path";
import { repoRoot } from "./paths.ts";
import { connectPluginDir, ensureConnectPlugin } from "./connect-jars.ts";
import type { ConnectPlugin } from "./connect-jars.ts";

const pluginPoms = join(repoRoot, "packages", "testkit", "connect", "plugins");

/** Keep in step with the pom's kafka.version (packages/testkit/connect/plugins/debezium-postgres.pom.xml). */
export const DEBEZIUM_POSTGRES_VERSION = "3.6.1.Final";
/** Keep in step with the pom's kafka.version (packages/testkit/connect/plugins/debezium-jdbc.pom.xml). */
export const DEBEZIUM_JDBC_VERSION = "3.6.0.Final";

/** What a plugin's folder leaves to the worker: Connect's API and clients, and the logging API. */
const providedByWorker = ["-DexcludeGroupIds=org.apache.kafka,org.slf4j"];

/** Debezium's PostgreSQL source (io.debezium.connector.postgresql.PostgresConnector), Java 17. */
export const debeziumPostgresPlugin: ConnectPlugin = {
  name: "debezium-postgres",
  pom: join(pluginPoms, "debezium-postgres.pom.xml"),
  version: DEBEZIUM_POSTGRES_VERSION,
  mavenArgs: providedByWorker,
};

/**
 * Debezium's JDBC sink (io.debezium.connector.jdbc.JdbcSinkConnector) with the PostgreSQL driver, and
 * Hibernate's Agroal pool from org.hibernate.orm 7.2.19.Final in place of org.hibernate:hibernate-agroal,
 * which Maven Central does not serve (see the pom).
 */
export const debeziumJdbcPlugin: ConnectPlugin = {
  name: "debezium-jdbc",
  pom: join(pluginPoms, "debezium-jdbc.pom.xml"),
  version: DEBEZIUM_JDBC_VERSION,
  // Jackson's core comes from the worker (2.21.2, as Debezium wants): Hibernate's ObjectMapper.findModules
  // sees the worker's Jackson modules (blackbird, jdk8) through the parent class loader, and with a
  // jackson-databind of the plugin's own they are "not a subtype" and the task fails at start.
  mavenArgs: ["-DexcludeGroupIds=org.apache.kafka,org.slf4j,com.fasterxml.jackson.core"],
};

/**
 * The third-party connectors the testkit installs, each in its own folder under a worker's
 * `plugin.path` (named by `name`). Connect's file source and sink need none: connect-file is on the
 * worker's own classpath.
 */
export const thirdPartyPlugins: readonly ConnectPlugin[] = [debeziumPostgresPlugin, debeziumJdbcPlugin];

/**
 * The worker's `plugins` option for every third-party plugin: folder name -> folder of jars. Known
 * before the jars are fetched, so a test file can pass it to `useConnectWorker` and fetch in beforeAll
 * (`ensureThirdPartyPlugins`).
 */
export function thirdPartyPluginFolders(): Record<string, string> {
  return Object.fromEntries(thirdPartyPlugins.map((plugin) => [plugin.name, connectPluginDir(plugin)]));
}

/**
 * Fetches every third-party plugin (one after the other: two Maven runs filling one ~/.m2 at once can
 * corrupt it) and answers the worker's `plugins` option: folder name -> folder of jars.
 */
export async function ensureThirdPartyPlugins(): Promise<Record<string, string>> {
  const folders: Record<string, string> = {};
  for (const plugin of thirdPartyPlugins) folders[plugin.name] = await ensureConnectPlugin(plugin);
  return folders;
}
