// Fetches the Kafka broker and Connect worker jars unless present (CI runs it before the tests).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { connectLibDir, ensureConnectJars } from "../src/kafka/connect-jars.ts";
import { ensureKafkaJars, kafkaLibDir } from "../src/kafka/jars.ts";
import { CONNECT_VERSION, KAFKA_VERSION } from "../src/kafka/version.ts";

// One after the other: two Maven runs filling one ~/.m2 at once can corrupt it.
for (const [label, libDir, ensure] of [
  [`Apache Kafka ${KAFKA_VERSION}`, kafkaLibDir(), ensureKafkaJars],
  [`Kafka Connect ${CONNECT_VERSION}`, connectLibDir(), ensureConnectJars],
] as const) {
  const cached = existsSync(join(libDir, ".complete"));
  const started = Date.now();
  await ensure();
  console.log(
    `${label} jars ${cached ? "already cached" : "fetched"} in ${libDir} (${Date.now() - started} ms)`,
  );
}
