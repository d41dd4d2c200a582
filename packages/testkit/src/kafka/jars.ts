import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
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

/** A classpath directory that one pom's `mvn dependency:copy-dependencies` fills. */
export interface MavenJars {
  /** Named in errors and in the "fetched" line, e.g. "Apache Kafka 4.4.0". */
  label: string;
  /** The pom whose dependencies are copied; it takes the version as `-Dkafka.version`. */
  pom: string;
  version: string;
  libDir: string;
  /** More Maven arguments, e.g. `-DexcludeGroupIds=org.apache.kafka` for a Connect plugin. */
  mavenArgs?: readonly string[];
}

/** The broker's classpath directory (packages/testkit/kafka/pom.xml); see `ensureMavenJars`. */
export function ensureKafkaJars(version = KAFKA_VERSION): Promise<string> {
  return ensureMavenJars({
    label: `Apache Kafka ${version}`,
    pom: kafkaPomPath,
    version,
    libDir: kafkaLibDir(version),
  });
}

/**
 * A classpath directory fetched from Maven Central on first use (`mvn dependency:copy-dependencies`
 * of the pom), offline afterwards. A marker file says a fetch finished; a lock plus an atomic rename
 * keep parallel test files from seeing half a directory.
 */
export async function ensureMavenJars({
  label,
  pom,
  version,
  libDir,
  mavenArgs = [],
}: MavenJars): Promise<string> {
  if (existsSync(join(libDir, COMPLETE))) return libDir;
  const parent = dirname(libDir);
  await mkdir(parent, { recursive: true });
  return withFileLock(join(parent, "fetch.lock"), 10 * 60_000, async () => {
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
          pom,
          `-Dkafka.version=${version}`,
          "dependency:copy-dependencies",
          "-DincludeScope=runtime",
          `-DoutputDirectory=${staging}`,
          ...mavenArgs,
        ],
        { maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (error) {
      const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
      throw new Error(
        `Fetching ${label} jars with Maven failed (${pom}):\n${tail(`${stdout}\n${stderr}`, 40)}`,
        {
          cause: error,
        },
      );
    }
    await writeFile(join(staging, COMPLETE), new Date().toISOString());
    await rm(libDir, { recursive: true, force: true });
    await rename(staging, libDir);
    process.stderr.write(`[testkit] fetched ${label} jars in ${Date.now() - started} ms\n`);
    return libDir;
  });
}

async function requireTool(command: string, args: string[]): Promise<void> {
  try {
    await run(command, args);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error(
        `The Kafka testkit needs \`${command}\` on PATH (a JDK 17+ and Apache Maven 3.8+) to fetch and run a broker or a Connect worker`,
      );
    }
    throw error;
  }
}

export function tail(text: string, lines: number): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}
