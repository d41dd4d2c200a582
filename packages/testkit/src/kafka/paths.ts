import { join, resolve } from "node:path";

/** The repository root, found from this file (packages/testkit/src/kafka). */
export const repoRoot = resolve(import.meta.dirname, "../../../..");

/** Git-ignored cache for jars, shared clusters and the developer clusters. */
export const kafkaCacheDir = process.env.KAFKA_TESTKIT_CACHE ?? join(repoRoot, ".cache", "kafka");

export const kafkaPomPath = join(repoRoot, "packages", "testkit", "kafka", "pom.xml");

export const connectPomPath = join(repoRoot, "packages", "testkit", "connect", "pom.xml");

/** The Connect worker's jars (`<version>/lib`) and its plugins (`plugins/<name>/<version>`). */
export const connectCacheDir = join(kafkaCacheDir, "connect");
