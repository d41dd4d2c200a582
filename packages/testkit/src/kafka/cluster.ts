import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KafkaConfig } from "kafkajs";
import { formatStorage, spawnBroker, stopWatched } from "./broker-process.ts";
import type { BrokerFiles } from "./broker-process.ts";
import { log4j2Properties, serverProperties } from "./config.ts";
import { ensureKafkaJars } from "./jars.ts";
import { isAlive } from "./lock.ts";
import { freePort } from "./ports.ts";
import { waitUntilReady } from "./ready.ts";
import { createSecurity, formatArguments, kafkajsSecurity, securityProperties } from "./security.ts";
import type { KafkaClusterSecurity, KafkaSecurityProtocol } from "./security.ts";
import { KAFKA_VERSION } from "./version.ts";

export interface KafkaClusterOptions {
  /** Label for logs and the directory name; default "kafka". */
  name?: string;
  /** Directory for config, data and log; default a new temporary directory. Reused if it holds a cluster. */
  dir?: string;
  /** Client port; default a free one. The controller port is chosen the same way. */
  port?: number;
  controllerPort?: number;
  /** The broker dies when any of these processes does; default the current process, `[]` for none. */
  ownerPids?: number[];
  version?: string;
  /**
   * Secures the client listener: SASL_PLAINTEXT / SASL_SSL with one user for PLAIN and SCRAM-SHA-256,
   * SSL / SASL_SSL with a new CA and broker certificate (needs openssl). Default PLAINTEXT.
   */
  security?: KafkaSecurityProtocol;
}

/** What `cluster.json` in a cluster's directory records, so other processes can attach to it. */
export interface KafkaClusterState {
  name: string;
  version: string;
  clusterId: string;
  port: number;
  controllerPort: number;
  ownerPids: number[];
  pid: number | null;
  security?: KafkaClusterSecurity;
}

export interface KafkaCluster extends AsyncDisposable {
  readonly name: string;
  readonly port: number;
  /** "127.0.0.1:port", ready for kafkajs `brokers` or a registry cluster's bootstrap servers. */
  readonly bootstrapServers: string;
  readonly clusterId: string;
  /** Protocol, SASL user and CA PEM of a secured cluster; undefined for PLAINTEXT. */
  readonly security: KafkaClusterSecurity | undefined;
  /**
   * kafkajs `ssl`/`sasl` options that connect to it (SASL with PLAIN), a new object on each read:
   * `kafkaClient(bootstrapServers, clientConfig)`.
   */
  readonly clientConfig: Partial<KafkaConfig>;
  readonly dir: string;
  readonly logFile: string;
  isRunning(): boolean;
  /** The last lines of the broker's log, for failure reports. */
  logTail(lines?: number): string;
  /** Controlled shutdown; data and port are kept for `start()`. */
  stop(): Promise<void>;
  /** Starts again on the same port and data, and waits until the broker answers. */
  start(): Promise<void>;
  /** Stops the broker and removes its directory. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts a single-node KRaft cluster (combined broker and controller) and waits until it is ready. */
export async function startKafkaCluster(options: KafkaClusterOptions = {}): Promise<KafkaCluster> {
  const cluster = await createKafkaCluster(options);
  await cluster.start();
  return cluster;
}

/** Starts `count` independent clusters side by side ("kafka-1", "kafka-2", ...). */
export async function startKafkaClusters(
  count: number,
  options: Omit<KafkaClusterOptions, "name" | "dir" | "port" | "controllerPort"> = {},
): Promise<KafkaCluster[]> {
  await ensureKafkaJars(options.version);
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => startKafkaCluster({ ...options, name: `kafka-${i + 1}` })),
  );
  const clusters = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failure = started.find((result) => result.status === "rejected");
  if (failure) {
    await Promise.all(clusters.map((cluster) => cluster[Symbol.asyncDispose]()));
    throw failure.reason;
  }
  return clusters;
}

/** Prepares (or reopens) a cluster directory without starting the broker. */
export async function createKafkaCluster(options: KafkaClusterOptions = {}): Promise<KafkaCluster> {
  const name = options.name ?? "kafka";
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), `sr-${name}-`)));
  await mkdir(dir, { recursive: true });
  const stateFile = join(dir, "cluster.json");
  const existing = existsSync(stateFile)
    ? (JSON.parse(await readFile(stateFile, "utf8")) as KafkaClusterState)
    : undefined;
  const state: KafkaClusterState = existing ?? {
    name,
    version: options.version ?? KAFKA_VERSION,
    clusterId: randomBytes(16).toString("base64url"),
    port: options.port ?? (await freePort()),
    controllerPort: options.controllerPort ?? (await freePort()),
    ownerPids: options.ownerPids ?? [process.pid],
    pid: null,
    ...(options.security ? { security: await createSecurity(options.security, dir) } : {}),
  };
  if (existing && options.ownerPids !== undefined) state.ownerPids = options.ownerPids;
  const files: Omit<BrokerFiles, "libDir"> = {
    configFile: join(dir, "server.properties"),
    log4jFile: join(dir, "log4j2.properties"),
    logFile: join(dir, "broker.log"),
  };
  const save = () => writeFile(stateFile, `${JSON.stringify(state, null, 2)}\n`);
  if (!existing) {
    await writeFile(
      files.configFile,
      serverProperties({
        port: state.port,
        controllerPort: state.controllerPort,
        logDir: join(dir, "data"),
        protocol: state.security?.protocol,
        extra: state.security ? securityProperties(state.security, dir) : {},
      }),
    );
    await writeFile(files.log4jFile, log4j2Properties);
    await save();
  }
  const bootstrapServers = `127.0.0.1:${state.port}`;
  const isRunning = () => state.pid !== null && isAlive(state.pid);
  const logTail = (lines = 50) => readLogTail(files.logFile, lines);

  const describeFailure = () => `--- ${files.logFile} (last 40 lines) ---\n${logTail(40)}`;
  // A new object each time: kafkajs writes into the `sasl` options it is given.
  const clientConfig = () => kafkajsSecurity(state.security);
  const ready = () => waitUntilReady(bootstrapServers, isRunning, describeFailure, 90_000, clientConfig());
  const start = async () => {
    if (isRunning()) {
      // Possibly started by another process that has not seen it ready yet: one admin call settles it.
      await ready();
      return;
    }
    const libDir = await ensureKafkaJars(state.version);
    if (!existsSync(join(dir, "data", "meta.properties"))) {
      await formatStorage({ ...files, libDir }, state.clusterId, formatArguments(state.security));
    }
    state.pid = spawnBroker({ ...files, libDir }, state.ownerPids);
    await save();
    try {
      await ready();
    } catch (error) {
      // A broker that never became ready must not outlive the failed start (the log tail is in the error).
      await stop().catch(() => {});
      throw error;
    }
  };
  const stop = async () => {
    if (state.pid === null) return;
    await stopWatched(state.pid);
    state.pid = null;
    await save();
  };
  return {
    name: state.name,
    port: state.port,
    bootstrapServers,
    clusterId: state.clusterId,
    security: state.security,
    get clientConfig() {
      return clientConfig();
    },
    dir,
    logFile: files.logFile,
    isRunning,
    logTail,
    start,
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function readLogTail(file: string, lines: number): string {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return "(no log yet)";
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, 256 * 1024);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString("utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } finally {
    closeSync(fd);
  }
}
