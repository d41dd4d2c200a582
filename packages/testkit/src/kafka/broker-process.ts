import { execFile, spawn } from "node:child_process";
import { openSync, closeSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { brokerJvmOptions } from "./config.ts";
import { tail } from "./jars.ts";
import { isAlive } from "./lock.ts";

const run = promisify(execFile);

/**
 * Runs a server (a JVM, a PostgreSQL) in the background and ends it as soon as one of the owner
 * processes is gone, so a crashed or killed Vitest never leaves brokers, Connect workers or databases
 * behind. SIGTERM to this shell stops the server gracefully with STOP_SIGNAL. OWNERS empty means no
 * owner (the developer clusters of `npm run kafka:up`).
 */
const WATCHDOG = `
"$@" &
child=$!
trap 'kill -$STOP_SIGNAL "$child" 2>/dev/null' TERM INT HUP
owners_alive() { for owner in $OWNERS; do kill -0 "$owner" 2>/dev/null || return 1; done; }
while owners_alive && kill -0 "$child" 2>/dev/null; do
  sleep 1 & wait $!
done
kill -$STOP_SIGNAL "$child" 2>/dev/null
# A server stuck in controlled shutdown must not outlive its owner: KILL after a grace period.
waited=0
while kill -0 "$child" 2>/dev/null && [ "$waited" -lt 20 ]; do
  sleep 1
  waited=$((waited + 1))
done
kill -KILL "$child" 2>/dev/null
wait "$child"
`;

export interface BrokerFiles {
  libDir: string;
  configFile: string;
  log4jFile: string;
  logFile: string;
}

function javaArgs(files: BrokerFiles, mainClass: string, args: string[]): string[] {
  return [
    ...brokerJvmOptions,
    `-Dlog4j2.configurationFile=${files.log4jFile}`,
    "-cp",
    join(files.libDir, "*"),
    mainClass,
    ...args,
  ];
}

/** `kafka-storage format`: writes meta.properties and the bootstrap checkpoint for a new cluster id. */
export async function formatStorage(
  files: BrokerFiles,
  clusterId: string,
  extraArgs: readonly string[] = [],
): Promise<void> {
  try {
    await run(
      "java",
      javaArgs(files, "kafka.tools.StorageTool", [
        "format",
        `--cluster-id=${clusterId}`,
        "--config",
        files.configFile,
        ...extraArgs,
      ]),
    );
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `kafka-storage format failed for ${files.configFile}:\n${tail(`${stdout}\n${stderr}`, 30)}`,
      {
        cause: error,
      },
    );
  }
}

/** Starts kafka.Kafka under the watchdog in its own process group; returns the watchdog's pid. */
export function spawnBroker(files: BrokerFiles, ownerPids: readonly number[]): number {
  return spawnWatchedJava(javaArgs(files, "kafka.Kafka", [files.configFile]), files.logFile, ownerPids);
}

/**
 * Starts `java ...args` under the watchdog in its own process group, its output appended to
 * `logFile`; returns the watchdog's pid (for `stopWatched`). A broker or a Connect worker.
 */
export function spawnWatchedJava(
  args: readonly string[],
  logFile: string,
  ownerPids: readonly number[],
): number {
  return spawnWatched(["java", ...args], logFile, ownerPids);
}

/**
 * Starts `command` under the watchdog in its own process group, its output appended to `logFile`;
 * returns the watchdog's pid (for `stopWatched`). `stopSignal` is what a graceful stop sends the
 * server: TERM for a JVM, INT for PostgreSQL (its TERM waits for every client to leave).
 */
export function spawnWatched(
  command: readonly string[],
  logFile: string,
  ownerPids: readonly number[],
  stopSignal: "TERM" | "INT" = "TERM",
): number {
  const log = openSync(logFile, "a");
  try {
    const child = spawn("sh", ["-c", WATCHDOG, "kafka-watchdog", ...command], {
      detached: true,
      stdio: ["ignore", log, log],
      env: { ...process.env, OWNERS: ownerPids.join(" "), STOP_SIGNAL: stopSignal },
    });
    child.unref();
    if (child.pid === undefined)
      throw new Error(`Could not spawn ${command[0]} under the watchdog (sh not found?)`);
    return child.pid;
  } finally {
    closeSync(log);
  }
}

/** SIGTERM (a controlled shutdown), then SIGKILL to the whole process group after the grace period. */
export async function stopWatched(pid: number, graceMs = 30_000): Promise<void> {
  if (!signal(pid, "SIGTERM")) return;
  const deadline = Date.now() + graceMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      signal(-pid, "SIGKILL");
      await sleep(200);
      return;
    }
    await sleep(100);
  }
}

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}
