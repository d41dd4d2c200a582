import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "@stream-registry/testkit";
import { loadConfig, startRegistry, type RegistryConfig, type RunningRegistry } from "../../src/index.ts";
import { postGraphQL, type GraphQLResponse } from "./graphql-client.ts";

export { eventually } from "./eventually.ts";

export const testProviderModule = fileURLToPath(new URL("../fixtures/test-provider.ts", import.meta.url));

export interface TestRegistry extends RunningRegistry {
  /** Runs an operation; fails the test on GraphQL errors. */
  query<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** Runs an operation and returns the raw response (for error assertions). */
  request<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GraphQLResponse<T>>;
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
    REGISTRY_PROVIDERS: testProviderModule,
    RECONCILER_POLL_MS: "200",
    RECONCILER_RETRY_BASE_MS: "50",
    RECONCILER_RETRY_MAX_MS: "500",
    SHUTDOWN_TIMEOUT_MS: "2000",
    // Periodic probes and resyncs would add queries at random moments; tests that need them ask.
    REGISTRY_HEALTH_INTERVAL_MS: "0",
    RECONCILER_RESYNC_MS: "0",
    ...(options.database.url ? { DATABASE_URL: options.database.url } : {}),
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
  return {
    ...registry,
    logs,
    request: (query, variables, headers) => postGraphQL(registry.url, query, variables, headers),
    async query<T>(query: string, variables?: Record<string, unknown>) {
      const response = await postGraphQL<T>(registry.url, query, variables);
      if (response.errors?.length)
        throw new Error(`GraphQL errors: ${JSON.stringify(response.errors, null, 2)}`);
      return response.data as T;
    },
  };
}

/**
 * One registry on a fresh database of `kind` for a whole test file; its logs are printed when a
 * test fails. Returns a getter, since the registry starts in beforeAll.
 */
export function useTestRegistry(kind: DatabaseKind, env?: Record<string, string>): () => TestRegistry {
  let database: TestDatabase | undefined;
  let registry: TestRegistry | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind, "registry");
    registry = await startTestRegistry({ database, ...(env ? { env } : {}) });
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
  });
  return () => {
    if (!registry) throw new Error("registry not started (beforeAll failed?)");
    return registry;
  };
}
