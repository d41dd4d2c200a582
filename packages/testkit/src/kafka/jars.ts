import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { withFileLock } from "./lock.ts";
import { kafkaCacheDir, kafkaPomPath } from "./paths.ts";
import { KAFKA_VERSION } from "./version.ts";

const run = promisify(execFile);
const COMPLETE = ".complete";

/** Where the jars of a Kafka version live once fetched. */
export function kafkaLibDir(version = KAFKA_VERSION): string {
  return join(kafkaCacheDir, version, "lib");
}

/**
 * The broker's classpath directory, fetched from Maven Central on first use (`mvn
 * dependency:copy-dependencies` of packages/testkit/kafka/pom.xml), offline afterwards. A marker file
 * says a fetch finished; a lock plus an atomic rename keep parallel test files from seeing half a
 * directory.
 */
export async function ensureKafkaJars(version = KAFKA_VERSION): Promise<string> {
  const libDir = kafkaLibDir(version);
  if (existsSync(join(libDir, COMPLETE))) return libDir;
  await mkdir(join(kafkaCacheDir, version), { recursive: true });
  return withFileLock(join(kafkaCacheDir, version, "fetch.lock"), 10 * 60_000, async () => {
    if (existsSync(join(libDir, COMPLETE))) return libDir;
    await requireTool("java", ["-version"]);
    await requireTool("mvn", ["-v"]);
    const staging = `${libDir}.tmp-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    const started = Date.now();
    try {
      await run(
        "mvn",
        [
          "-q",
          "-B",
          "-f",
          kafkaPomPath,
          `-Dkafka.version=${version}`,
          "dependency:copy-dependencies",
          "-DincludeScope=runtime",
          `-DoutputDirectory=${staging}`,
        ],
        { maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (error) {
      const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
      throw new Error(
        `Fetching Apache Kafka ${version} jars with Maven failed (${kafkaPomPath}):\n${tail(`${stdout}\n${stderr}`, 40)}`,
        { cause: error },
      );
    }
    await writeFile(join(staging, COMPLETE), new Date().toISOString());
    await rm(libDir, { recursive: true, force: true });
    await rename(staging, libDir);
    process.stderr.write(`[testkit] fetched Apache Kafka ${version} jars in ${Date.now() - started} ms\n`);
    return libDir;
  });
}

async function requireTool(command: string, args: string[]): Promise<void> {
  try {
    await run(command, args);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error(
        `The Kafka testkit needs \`${command}\` on PATH (a JDK 17+ and Apache Maven 3.8+) to fetch and run a broker`,
      );
    }
    throw error;
  }
}

export function tail(text: string, lines: number): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}
