// Fetches the Kafka broker and Connect worker jars and the Connect plugins unless present (CI runs it
// before the tests). Each line says whether it was fetched or already cached, and how long it took.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  connectLibDir,
  connectPluginDir,
  ensureConnectJars,
  ensureConnectPlugin,
} from "../src/kafka/connect-jars.ts";
import { ensureKafkaJars, kafkaLibDir } from "../src/kafka/jars.ts";
import { thirdPartyPlugins } from "../src/kafka/plugins.ts";
import { CONNECT_VERSION, KAFKA_VERSION } from "../src/kafka/version.ts";

const everything = Date.now();
// One after the other: two Maven runs filling one ~/.m2 at once can corrupt it.
for (const [label, libDir, ensure] of [
  [`Apache Kafka ${KAFKA_VERSION}`, kafkaLibDir(), () => ensureKafkaJars()],
  [`Kafka Connect ${CONNECT_VERSION}`, connectLibDir(), () => ensureConnectJars()],
  ...thirdPartyPlugins.map(
    (plugin) =>
      [
        `Connect plugin ${plugin.name} ${plugin.version}`,
        connectPluginDir(plugin),
        () => ensureConnectPlugin(plugin),
      ] as const,
  ),
] as const) {
  const cached = existsSync(join(libDir, ".complete"));
  const started = Date.now();
  await ensure();
  console.log(
    `${label} jars ${cached ? "already cached" : "fetched"} in ${libDir} (${Date.now() - started} ms)`,
  );
}
console.log(`kafka:fetch done in ${Date.now() - everything} ms`);
