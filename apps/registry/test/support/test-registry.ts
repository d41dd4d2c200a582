import { rm } from "node:fs/promises";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll } from "vitest";
import {
  createTestDatabase,
  databaseEnv,
  migratedDataDir,
  registryClient,
  type DatabaseKind,
  type RegistryClient,
  type TestDatabase,
  testRegistryEnv,
} from "@stream-registry/testkit";
import { loadConfig, startRegistry, type RegistryConfig, type RunningRegistry } from "../../src/index.ts";

// The registry's own tests run it in this process, to reach its internals (the reconciler, the
// database); other packages' tests start it as a process (useRegistryProcess in the testkit).

/** `query` fails the test on GraphQL errors; `request` returns the raw response. */
export interface TestRegistry extends RunningRegistry, RegistryClient {
  logs: string[];
}

export interface TestRegistryOptions {
  database: TestDatabase;
  /** PGlite directory; omitted means in memory. Ignored for PostgreSQL. */
  dataDir?: string;
  env?: Record<string, string>;
}

/** Starts a registry in this process on a free port, talking real HTTP, logging into memory. */
export async function startTestRegistry(options: TestRegistryOptions): Promise<TestRegistry> {
  const config: RegistryConfig = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    ...testRegistryEnv,
    ...databaseEnv(options.database.url, undefined),
    ...options.env,
  });
  config.dataDir = options.database.url ? undefined : options.dataDir;
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString("utf8").trimEnd());
      done();
    },
  });
  const registry = await startRegistry(config, pino({ level: "debug" }, sink));
  return { ...registry, ...registryClient(registry.url), logs };
}

/**
 * One registry on a fresh database of `kind` for a whole test file; its logs are printed when a
 * test fails. Returns a getter, since the registry starts in beforeAll.
 */
export function useTestRegistry(kind: DatabaseKind, env?: Record<string, string>): () => TestRegistry {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let registry: TestRegistry | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind, "registry");
    if (!database.url) dataDir = await migratedDataDir();
    registry = await startTestRegistry({ database, dataDir, ...(env ? { env } : {}) });
  });
  afterEach((context) => {
    if (context.task.result?.state === "fail" && registry) {
      // eslint-disable-next-line no-console -- a failing test shows what the registry logged
      console.error(`registry log (${kind}):\n${registry.logs.slice(-100).join("\n")}`);
    }
  });
  afterAll(async () => {
    await registry?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!registry) throw new Error("registry not started (beforeAll failed?)");
    return registry;
  };
}
