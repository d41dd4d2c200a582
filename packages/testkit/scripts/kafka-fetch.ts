// Fetches the Kafka broker jars into .cache/kafka/<version>/lib unless present (CI runs it before the tests).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ensureKafkaJars, kafkaLibDir } from "../src/kafka/jars.ts";
import { KAFKA_VERSION } from "../src/kafka/version.ts";

const cached = existsSync(join(kafkaLibDir(), ".complete"));
const started = Date.now();
const libDir = await ensureKafkaJars();
console.log(
  `Apache Kafka ${KAFKA_VERSION} jars ${cached ? "already cached" : "fetched"} in ${libDir} (${Date.now() - started} ms)`,
);
