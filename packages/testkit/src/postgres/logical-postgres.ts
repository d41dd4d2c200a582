import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import pg from "pg";
import { spawnWatched, stopWatched } from "../kafka/broker-process.ts";
import { readLogTail } from "../kafka/cluster.ts";
import { tail } from "../kafka/jars.ts";
import { isAlive } from "../kafka/lock.ts";
import { freePort } from "../kafka/ports.ts";

const run = promisify(execFile);

export interface LogicalPostgresOptions {
  /** The server dies when any of these processes does; default the current process. */
  ownerPids?: number[];
  /** Port on 127.0.0.1; default a free one (never the shared server's 5432). */
  port?: number;
}

/**
 * A PostgreSQL of its own with `wal_level=logical`, for Debezium: a temporary data directory,
 * trust authentication on 127.0.0.1 for the superuser `postgres` (replication included).
 */
export interface LogicalPostgres extends AsyncDisposable {
  readonly host: "127.0.0.1";
  readonly port: number;
  /** The superuser; trust authentication, so no password is needed (connectors get "postgres"). */
  readonly user: "postgres";
  readonly password: "postgres";
  readonly dir: string;
  readonly logFile: string;
  /** "postgresql://postgres@127.0.0.1:port/<database>" (default database "postgres"). */
  url(database?: string): string;
  /** CREATE DATABASE, returning its name. */
  createDatabase(name: string): Promise<string>;
  /** One connection, closed after `fn`. */
  withClient<T>(database: string, fn: (client: pg.Client) => Promise<T>): Promise<T>;
  isRunning(): boolean;
  /** Stops the server (fast shutdown) and removes its directory. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Where this machine's PostgreSQL server programs are: the newest /usr/lib/postgresql/<major>/bin. */
export function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((entry) => /^\d+$/.test(entry) && existsSync(join(root, entry, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = majors[0];
  if (newest === undefined) {
    throw new Error(
      "A logical-replication PostgreSQL needs PostgreSQL's server programs (initdb, postgres) under /usr/lib/postgresql/<major>/bin: apt-get install postgresql",
    );
  }
  return join(root, newest, "bin");
}

/**
 * initdb refuses to run as root (and so does postgres): as root, both run as the `postgres` OS user
 * through setpriv, which execs in place, so the watchdog's signals reach the postmaster itself.
 */
async function asServerUser(): Promise<{ prefix: string[]; uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const { stdout: uid } = await run("id", ["-u", "postgres"]);
  const { stdout: gid } = await run("id", ["-g", "postgres"]);
  return {
    prefix: ["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups", "--"],
    uid: Number(uid.trim()),
    gid: Number(gid.trim()),
  };
}

/** Server settings: logical decoding for Debezium, durability traded for speed (a disposable server). */
function serverSettings(port: number, dir: string): string[] {
  const settings = {
    listen_addresses: "127.0.0.1",
    port,
    unix_socket_directories: dir,
    wal_level: "logical",
    max_wal_senders: 10,
    max_replication_slots: 10,
    fsync: "off",
    synchronous_commit: "off",
    full_page_writes: "off",
    shared_buffers: "32MB",
    max_connections: 50,
  };
  return Object.entries(settings).flatMap(([key, value]) => ["-c", `${key}=${value}`]);
}

/**
 * Starts a PostgreSQL with `wal_level=logical` in a temporary directory on a free port, under the
 * brokers' watchdog (it dies with its owner), and waits until it accepts connections. It is stopped
 * and removed again if it does not start. The shared server at 127.0.0.1:5432 is never touched.
 */
export async function startLogicalPostgres(options: LogicalPostgresOptions = {}): Promise<LogicalPostgres> {
  const bin = postgresBinDir();
  const user = await asServerUser();
  const dir = await mkdtemp(join(tmpdir(), "sr-logical-pg-"));
  const dataDir = join(dir, "data");
  const logFile = join(dir, "postgres.log");
  let pid: number | null = null;
  const isRunning = () => pid !== null && isAlive(pid);
  const dispose = async () => {
    try {
      if (pid !== null) await stopWatched(pid);
      pid = null;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  try {
    if (user.uid !== undefined && user.gid !== undefined) await chown(dir, user.uid, user.gid);
    await runChecked([
      ...user.prefix,
      join(bin, "initdb"),
      `--pgdata=${dataDir}`,
      "--username=postgres",
      "--auth=trust",
      "--encoding=UTF8",
      "--no-sync",
    ]);
    const port = options.port ?? (await freePort());
    pid = spawnWatched(
      [...user.prefix, join(bin, "postgres"), "-D", dataDir, ...serverSettings(port, dir)],
      logFile,
      options.ownerPids ?? [process.pid],
      "INT",
    );
    const url = (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`;
    const withClient = async <T>(database: string, fn: (client: pg.Client) => Promise<T>): Promise<T> => {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return await fn(client);
      } finally {
        await client.end();
      }
    };
    await waitUntilAccepting(
      () => withClient("postgres", (client) => client.query("SELECT 1")),
      isRunning,
      () => readLogTail(logFile, 30),
    );
    return {
      host: "127.0.0.1",
      port,
      user: "postgres",
      password: "postgres",
      dir,
      logFile,
      url,
      async createDatabase(name) {
        await withClient("postgres", (client) => client.query(`CREATE DATABASE "${name}"`));
        return name;
      },
      withClient,
      isRunning,
      [Symbol.asyncDispose]: dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

async function runChecked(command: string[]): Promise<void> {
  try {
    const [program = "", ...args] = command;
    await run(program, args);
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command.join(" ")} failed:\n${tail(`${stdout}\n${stderr}`, 20)}`, { cause: error });
  }
}

async function waitUntilAccepting(
  probe: () => Promise<unknown>,
  isRunning: () => boolean,
  logTail: () => string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isRunning()) throw new Error(`PostgreSQL exited while starting:\n${logTail()}`);
    try {
      await probe();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`PostgreSQL did not accept connections within ${timeoutMs} ms:\n${logTail()}`, {
          cause: error,
        });
      }
    }
    await sleep(100);
  }
}
