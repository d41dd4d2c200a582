import { join } from "node:path";
import { ensureMavenJars } from "./jars.ts";
import { connectCacheDir, connectPomPath } from "./paths.ts";
import { CONNECT_VERSION } from "./version.ts";

/** Where the jars of a Connect worker version live once fetched. */
export function connectLibDir(version = CONNECT_VERSION): string {
  return join(connectCacheDir, version, "lib");
}

/** The worker's classpath (packages/testkit/connect/pom.xml), fetched like the broker's. */
export function ensureConnectJars(version = CONNECT_VERSION): Promise<string> {
  return ensureMavenJars({
    label: `Kafka Connect ${version}`,
    pom: connectPomPath,
    version,
    libDir: connectLibDir(version),
  });
}

/** A third-party connector: its own folder of jars, loaded in isolation from `plugin.path`. */
export interface ConnectPlugin {
  /** The folder's name under the worker's `plugin.path`, e.g. "debezium-postgres". */
  name: string;
  /** A pom listing the plugin's artifact; it takes the version as `-Dkafka.version`. */
  pom: string;
  version: string;
  /**
   * More Maven arguments. Plugins should leave out what the worker provides:
   * `-DexcludeGroupIds=org.apache.kafka` (Debezium brings its own kafka-clients and connect-api).
   */
  mavenArgs?: readonly string[];
}

/** Where a plugin's jars are once fetched: .cache/kafka/connect/plugins/<name>/<version>. */
export function connectPluginDir(plugin: Pick<ConnectPlugin, "name" | "version">): string {
  return join(connectCacheDir, "plugins", plugin.name, plugin.version);
}

/** A plugin's folder of jars (`connectPluginDir`), fetched on first use. */
export function ensureConnectPlugin(plugin: ConnectPlugin): Promise<string> {
  return ensureMavenJars({
    label: `Connect plugin ${plugin.name} ${plugin.version}`,
    pom: plugin.pom,
    version: plugin.version,
    libDir: connectPluginDir(plugin),
    mavenArgs: plugin.mavenArgs,
  });
}
