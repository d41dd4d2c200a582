import { spawn } from "node:child_process";
import { eventually } from "./eventually.ts";
import { TEST_ADMIN_TOKEN } from "./test-env.ts";
import { registryMain, registryStart, repoRoot } from "./workspace.ts";

/**
 * How the process is started: node on what `npm start` runs (the registry's build, bin/start.mjs),
 * or `npm start` itself in the repository root, npm included, as users do.
 */
export type Launcher = "node" | "npm start";

/**
 * How long a registry process gets to start. Test files start theirs side by side, and a fresh
 * PGlite data directory costs seconds of CPU: on a loaded 2-core machine one took 50 s.
 */
export const START_TIMEOUT_MS = 120_000;

/** Preloaded into each registry: it stops the registry once this process is gone. */
const ownerWatchdog = new URL("./owner-watchdog.mjs", import.meta.url).href;

/** A registry running as its own OS process. */
export interface RegistryProcess {
  url: string;
  /** The process spawned: the registry, or npm running it. */
  pid: number;
  /** The registry's own process (from its start-up log line). */
  registryPid: number;
  logs: string[];
  /** Log lines parsed as JSON (non-JSON lines skipped). */
  entries(): Record<string, unknown>[];
  kill(signal: NodeJS.Signals): void;
  /** Signals npm and the registry alike, as a terminal's Ctrl-C does (it signals its foreground group). */
  killGroup(signal: NodeJS.Signals): void;
  /** The exit code of the spawned process; null if a signal ended it. */
  exited: Promise<number | null>;
  /** Whether the spawned process has not exited yet. */
  running(): boolean;
}

/** A registry process that may not get to run: `started` is its URL, or undefined if it exited first. */
export interface LaunchedRegistry extends Omit<RegistryProcess, "url" | "registryPid" | "killGroup"> {
  started: Promise<string | undefined>;
}

export async function spawnRegistry(
  env: Record<string, string>,
  launcher: Launcher = "node",
): Promise<RegistryProcess> {
  const launched = launchRegistry(env, launcher);
  const url = await launched.started;
  if (!url) throw new Error(`registry exited during start-up:\n${launched.logs.join("\n")}`);
  const registryPid = launched.entries().find((e) => e.msg === "registry started")?.pid as number;
  const killGroup = (signal: NodeJS.Signals) => {
    // An exited child's pid may be someone else's by now; the registry may be an orphan that
    // outlived npm, and is signalled all the same.
    const pids = new Set([launched.pid, registryPid]);
    if (!launched.running()) pids.delete(launched.pid);
    for (const pid of pids) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone already
      }
    }
  };
  return { ...launched, url, registryPid, killGroup };
}

/**
 * Starts a registry process; `started` gives up (and kills it) after `startTimeoutMs`. Its admin
 * token is TEST_ADMIN_TOKEN, which the testkit's clients send, unless `env` says otherwise
 * (REGISTRY_ADMIN_TOKEN: "" starts it without one, as a user's first start).
 */
export function launchRegistry(
  env: Record<string, string>,
  launcher: Launcher = "node",
  startTimeoutMs = START_TIMEOUT_MS,
): LaunchedRegistry {
  const users = usersEnvironment();
  // The registry dies with this process (owner-watchdog.mjs): preloaded by node, or by the node
  // that `npm start` runs, through NODE_OPTIONS.
  const [command, args, preload] =
    launcher === "node"
      ? [process.execPath, ["--import", ownerWatchdog, registryStart, registryMain], {}]
      : [
          "npm",
          ["start"],
          { NODE_OPTIONS: [users.NODE_OPTIONS, `--import=${ownerWatchdog}`].join(" ").trim() },
        ];
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: {
      ...users,
      ...preload,
      REGISTRY_TEST_OWNER_PID: String(process.pid),
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "debug",
      REGISTRY_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: string[] = [];
  let buffered = "";
  const collect = (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    logs.push(...lines.filter(Boolean));
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let done = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      done = true;
      resolve(code);
    }),
  );
  const entries = () =>
    logs.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const started = eventually(
    async () => {
      const url = entries().find((e) => e.msg === "registry started")?.url as string | undefined;
      return url ?? (done ? null : undefined);
    },
    startTimeoutMs,
    "the registry process to start",
  ).then(
    (url) => url ?? undefined,
    (error: unknown) => {
      // A registry that never said it started must not outlive the test that waited for it; what it
      // logged last tells where its start-up stood.
      child.kill("SIGKILL");
      const tail = logs.slice(-20).join("\n") || "(nothing logged)";
      throw new Error(`${(error as Error).message} in ${startTimeoutMs} ms; its last lines:\n${tail}`);
    },
  );
  return {
    started,
    pid: child.pid!,
    logs,
    entries,
    kill: (signal) => child.kill(signal),
    running: () => !done,
    exited,
  };
}

/** This process's environment without what Vitest and npm put there: a user's shell has neither. */
function usersEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(NODE_ENV|TEST|INIT_CWD|VITEST.*|npm_.*)$/.test(name)),
  );
}
