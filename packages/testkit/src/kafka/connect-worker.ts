import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { spawnWatchedJava, stopWatched } from "./broker-process.ts";
import { readLogTail } from "./cluster.ts";
import { connectJvmOptions, connectLog4j2Properties, workerProperties } from "./connect-config.ts";
import { ensureConnectJars } from "./connect-jars.ts";
import { waitUntilHealthy } from "./connect-ready.ts";
import { isAlive } from "./lock.ts";
import { freePort } from "./ports.ts";
import { CONNECT_VERSION } from "./version.ts";

export interface ConnectWorkerOptions {
  /** Brokers the worker keeps its internal topics on and connectors read and write (PLAINTEXT). */
  bootstrapServers: string;
  /** Label for logs and the directory name; default "connect". */
  name?: string;
  /** Directory for config, plugins and log; default a new temporary directory. Reused if it holds a worker. */
  dir?: string;
  /** REST port on 127.0.0.1; default a free one. */
  port?: number;
  /** Worker group and prefix of its internal topics; default a new one, so workers on shared brokers never meet. */
  groupId?: string;
  /** The worker dies when any of these processes does; default the current process, `[]` for none. */
  ownerPids?: number[];
  version?: string;
  /** Third-party plugins: name -> folder of jars (`ensureConnectPlugin`); each gets its own folder under `plugin.path`. */
  plugins?: Record<string, string>;
}

/** What `worker.json` in a worker's directory records, so other processes can attach to it. */
export interface ConnectWorkerState {
  name: string;
  version: string;
  bootstrapServers: string;
  groupId: string;
  port: number;
  ownerPids: number[];
  pid: number | null;
}

export interface ConnectWorker extends AsyncDisposable {
  readonly name: string;
  readonly port: number;
  /** "http://127.0.0.1:port": the REST API. */
  readonly url: string;
  readonly groupId: string;
  readonly bootstrapServers: string;
  readonly dir: string;
  readonly logFile: string;
  isRunning(): boolean;
  logTail(lines?: number): string;
  /**
   * One REST call; JSON in and out. A 409 (the worker is rebalancing) is retried for up to 30 s;
   * any other status outside 2xx throws with Connect's message.
   */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Stops the worker; config, plugins and port are kept for `start()`. */
  stop(): Promise<void>;
  /** Starts (again) and waits until `GET /health` answers 200; a worker that never does is stopped. */
  start(): Promise<void>;
  /** Stops the worker and removes its directory. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts a single-node distributed Connect worker and waits until it is healthy; removed again if it is not. */
export async function startConnectWorker(options: ConnectWorkerOptions): Promise<ConnectWorker> {
  const worker = await createConnectWorker(options);
  try {
    await worker.start();
  } catch (error) {
    if (options.dir === undefined) await worker[Symbol.asyncDispose]();
    throw error;
  }
  return worker;
}

/** Prepares (or reopens) a worker directory without starting the worker. */
export async function createConnectWorker(options: ConnectWorkerOptions): Promise<ConnectWorker> {
  for (const [plugin, folder] of Object.entries(options.plugins ?? {})) {
    if (!existsSync(folder)) {
      throw new Error(
        `plugins.${plugin}: the folder ${folder} does not exist; fetch it first (ensureConnectPlugin, ensureThirdPartyPlugins or npm run kafka:fetch)`,
      );
    }
  }
  const name = options.name ?? "connect";
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), `sr-${name}-`)));
  await mkdir(dir, { recursive: true });
  const stateFile = join(dir, "worker.json");
  const existing = existsSync(stateFile)
    ? (JSON.parse(await readFile(stateFile, "utf8")) as ConnectWorkerState)
    : undefined;
  const state: ConnectWorkerState = existing ?? {
    name,
    version: options.version ?? CONNECT_VERSION,
    bootstrapServers: options.bootstrapServers,
    groupId: options.groupId ?? `connect-${name}-${randomBytes(4).toString("hex")}`,
    port: options.port ?? (await freePort()),
    ownerPids: options.ownerPids ?? [process.pid],
    pid: null,
  };
  if (existing && options.ownerPids !== undefined) state.ownerPids = options.ownerPids;
  const configFile = join(dir, "worker.properties");
  const log4jFile = join(dir, "log4j2.properties");
  const logFile = join(dir, "worker.log");
  const pluginPath = join(dir, "plugins");
  const save = () => writeFile(stateFile, `${JSON.stringify(state, null, 2)}\n`);
  if (!existing) {
    await mkdir(pluginPath, { recursive: true });
    for (const [plugin, folder] of Object.entries(options.plugins ?? {})) {
      await symlink(folder, join(pluginPath, plugin), "dir");
    }
    await writeFile(
      configFile,
      workerProperties({
        bootstrapServers: state.bootstrapServers,
        groupId: state.groupId,
        port: state.port,
        pluginPath,
      }),
    );
    await writeFile(log4jFile, connectLog4j2Properties);
    await save();
  }
  const url = `http://127.0.0.1:${state.port}`;
  const isRunning = () => state.pid !== null && isAlive(state.pid);
  const logTail = (lines = 50) => readLogTail(logFile, lines);
  const describeFailure = () => `--- ${logFile} (last 40 lines) ---\n${logTail(40)}`;

  const stop = async () => {
    if (state.pid === null) return;
    await stopWatched(state.pid);
    state.pid = null;
    await save();
  };
  const start = async () => {
    if (!isRunning()) {
      const libDir = await ensureConnectJars(state.version);
      const args = [
        ...connectJvmOptions,
        `-Dlog4j2.configurationFile=${log4jFile}`,
        "-cp",
        join(libDir, "*"),
        "org.apache.kafka.connect.cli.ConnectDistributed",
        configFile,
      ];
      state.pid = spawnWatchedJava(args, logFile, state.ownerPids);
      await save();
    }
    try {
      await waitUntilHealthy(url, isRunning, describeFailure);
    } catch (error) {
      await stop().catch(() => {});
      throw error;
    }
  };
  return {
    name: state.name,
    port: state.port,
    url,
    groupId: state.groupId,
    bootstrapServers: state.bootstrapServers,
    dir,
    logFile,
    isRunning,
    logTail,
    request: (method, path, body) => connectRequest(url, method, path, body),
    start,
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function connectRequest<T>(url: string, method: string, path: string, body?: unknown): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (response.ok) return (text === "" ? undefined : JSON.parse(text)) as T;
    if (response.status !== 409 || Date.now() > deadline) {
      throw new Error(`Connect ${method} ${path} answered ${response.status}: ${text}`);
    }
    await sleep(250);
  }
}
