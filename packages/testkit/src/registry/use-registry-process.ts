import { rm } from "node:fs/promises";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "../databases.ts";
import { registryClient, type RegistryClient } from "./graphql-client.ts";
import { migratedDataDir } from "./migrated-data-dir.ts";
import { launchRegistry, START_TIMEOUT_MS, type LaunchedRegistry } from "./registry-process.ts";
import { databaseEnv } from "./secret-keys.ts";
import { testRegistryEnv } from "./test-env.ts";

export interface TestRegistryProcess extends RegistryClient {
  /** What the process has logged so far, a line each. */
  logs: string[];
  /** The log lines parsed as JSON (other lines skipped). */
  entries(): Record<string, unknown>[];
  /** Its PostgreSQL database (kind "postgres"), for a test that changes it behind its back. */
  databaseUrl: string | undefined;
}

/**
 * One registry process (`node apps/registry/bin/start.mjs`, what `npm start` runs: the build) on a
 * fresh database of `kind` for a whole test file: PGlite in a temporary directory, or a PostgreSQL
 * database of its own. Its log is printed when a test fails; it is stopped with SIGTERM and its
 * database dropped after the file. Returns a getter, since the registry starts in beforeAll.
 */
export function useRegistryProcess(
  kind: DatabaseKind,
  env: Record<string, string> = {},
): () => TestRegistryProcess {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let launched: LaunchedRegistry | undefined;
  let registry: TestRegistryProcess | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind, "registry");
    if (!database.url) dataDir = await migratedDataDir();
    const where = databaseEnv(database.url, dataDir);
    launched = launchRegistry({ ...testRegistryEnv, ...where, ...env });
    const url = await launched.started;
    if (!url) throw new Error(`registry exited during start-up:\n${launched.logs.join("\n")}`);
    registry = {
      ...registryClient(url),
      logs: launched.logs,
      entries: launched.entries,
      databaseUrl: database.url,
    };
  }, START_TIMEOUT_MS + 30_000);
  afterEach((context) => {
    if (context.task.result?.state === "fail" && launched) {
      // eslint-disable-next-line no-console -- a failing test shows what the registry logged
      console.error(`registry log (${kind}):\n${launched.logs.slice(-100).join("\n")}`);
    }
  });
  afterAll(async () => {
    // Also one still starting when beforeAll timed out: it must not outlive the file.
    if (launched) await stop(launched);
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!registry) throw new Error("registry not started (beforeAll failed?)");
    return registry;
  };
}

/** SIGTERM, as an operator stops it; SIGKILL if it has not exited within 10 s. */
async function stop(registry: LaunchedRegistry): Promise<void> {
  if (!registry.running()) return;
  registry.kill("SIGTERM");
  const killer = setTimeout(() => registry.kill("SIGKILL"), 10_000);
  await registry.exited;
  clearTimeout(killer);
}
