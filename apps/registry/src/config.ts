import path from "node:path";
import {
  DEFAULT_AUTO_RESTART,
  parseConnectAllow,
  parseRestartDelays,
  type AutoRestartPolicy,
  type ConnectAllowList,
} from "@stream-registry/core";
import { z } from "zod";
import { authConfigFrom, authEnv, type AuthConfig } from "./auth/auth-config.ts";
import { NO_CLUSTER_PRESETS, readClusterPresets, type ClusterPresets } from "./cluster-presets.ts";
import type { IndexFollowerConfig } from "./discovery/index-follower.ts";
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from "./graphql/guards/query-limits.ts";
import { DEFAULT_RATE_LIMIT, type RateLimitConfig } from "./graphql/guards/rate-limit.ts";
import { secretKeysEnv, secretKeysFrom, type SecretKeysConfig } from "./secrets/secret-keys-config.ts";

/** Everything a registry process can be told, read from the environment at start-up. */
export interface RegistryConfig {
  port: number;
  host: string;
  /** A postgresql:// URL; when unset, the embedded PGlite under `dataDir` is used. */
  databaseUrl: string | undefined;
  /** PGlite's directory; undefined means in memory (tests only). */
  dataDir: string | undefined;
  /** Provider modules to load besides the built-in ones (npm package names or paths). */
  providerModules: string[];
  /** What a DECLARE CLUSTER naming no provider or config takes for a new cluster (REGISTRY_CLUSTERS_FILE). */
  clusterPresets: ClusterPresets;
  production: boolean;
  logLevel: string;
  reconciler: ReconcilerConfig;
  health: HealthConfig;
  /** The data-in-flight poller (docs/operations.md, "Data in flight"). */
  flow: FlowConfig;
  /** How the discovery index follows the children's change feeds. */
  index: IndexFollowerConfig;
  /** What one GraphQL request may ask; see docs/api.md "Query limits". */
  queryLimits: QueryLimits;
  /** What one principal may spend in query cost per window; see docs/security.md "Rate limits". */
  rateLimit: RateLimitConfig;
  /** How long SIGTERM waits for in-flight requests and reconciles before giving up. */
  shutdownTimeoutMs: number;
  /** The secret child registries register with; none: this registry accepts no children. */
  enrollmentToken: string | undefined;
  /** The GraphQL URL other registries call this one at; undefined: where it listens. */
  publicUrl: string | undefined;
  /** The keys secrets are encrypted with at rest (REGISTRY_SECRET_KEYS or REGISTRY_SECRET_KEYS_FILE). */
  secretKeys: SecretKeysConfig;
  /**
   * Config keys an admin declares secret beyond the built-in spellings (REGISTRY_SECRET_KEY_NAMES,
   * comma-separated); see docs/security.md "Which values are secret".
   */
  secretKeyNames: string[];
  /** Who may call it: see docs/security.md. */
  auth: AuthConfig;
  /**
   * Where a caller may make the registry connect (cluster endpoints, parent and child URLs):
   * REGISTRY_CONNECT_ALLOW; undefined: anywhere. See docs/security.md "Where the registry connects".
   */
  connectAllow: ConnectAllowList | undefined;
}

export interface ReconcilerConfig {
  enabled: boolean;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How often ONLINE bindings are observed again (0: never); a vanished resource is re-created. */
  resyncMs: number;
  /** Observations in flight at once during a resync. */
  resyncConcurrency: number;
  /** Jobs of a kind whose handler creates many at once, leased and realized together (per cluster). */
  batchSize: number;
  /**
   * When failed sources and sinks are restarted automatically (docs/connect.md): the delays before
   * each restart, the last repeating, and how many at most. Omitted: core's DEFAULT_AUTO_RESTART.
   */
  connectorRestart?: AutoRestartPolicy;
}

export interface HealthConfig {
  /** How often each cluster is probed (0: only at declare time). */
  intervalMs: number;
  /** A probe that takes longer fails (the cluster counts as DOWN). */
  timeoutMs: number;
  /** Probes in flight at once. */
  concurrency: number;
}

export interface FlowConfig {
  /** How often each cluster's data in flight is read (0: never). */
  pollMs: number;
  /** A cluster's round that takes longer is abandoned (its bindings keep the last reading). */
  timeoutMs: number;
  /** Clusters read at once. */
  concurrency: number;
  /** Polls kept per partition of each consumer group: the health verdict's window. */
  window: number;
}

const int = (min: number) => z.coerce.number().int().min(min);

const envSchema = z.object({
  PORT: int(0).max(65535).default(4000),
  // Loopback unless told otherwise: a registry started to try it out is not on the network.
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .optional(),
  REGISTRY_DATA_DIR: z.string().default(".data"),
  REGISTRY_PROVIDERS: z.string().default(""),
  REGISTRY_CLUSTERS_FILE: z.string().optional(),
  NODE_ENV: z.string().default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  RECONCILER_ENABLED: z.enum(["true", "false"]).default("true"),
  RECONCILER_CONCURRENCY: int(1).default(8),
  RECONCILER_LEASE_MS: int(100).default(30_000),
  RECONCILER_POLL_MS: int(10).default(1_000),
  RECONCILER_RETRY_BASE_MS: int(1).default(500),
  RECONCILER_RETRY_MAX_MS: int(1).default(60_000),
  RECONCILER_RESYNC_MS: int(0).default(60_000),
  RECONCILER_RESYNC_CONCURRENCY: int(1).default(4),
  RECONCILER_BATCH_SIZE: int(1).default(100),
  REGISTRY_CONNECTOR_RESTART_DELAYS_MS: z
    .string()
    .refine((text) => parseRestartDelays(text) !== undefined, "must be delays in ms, comma-separated")
    .optional(),
  REGISTRY_CONNECTOR_RESTART_MAX: int(0).default(DEFAULT_AUTO_RESTART.max),
  REGISTRY_HEALTH_INTERVAL_MS: int(0).default(30_000),
  REGISTRY_INDEX_WAIT_MS: int(100).max(10_000).default(1_000),
  REGISTRY_INDEX_PAGE_SIZE: int(1).max(500).default(250),
  REGISTRY_HEALTH_TIMEOUT_MS: int(1).default(10_000),
  REGISTRY_HEALTH_CONCURRENCY: int(1).default(4),
  REGISTRY_FLOW_POLL_MS: int(0).default(30_000),
  REGISTRY_FLOW_TIMEOUT_MS: int(1).default(20_000),
  REGISTRY_FLOW_CONCURRENCY: int(1).default(2),
  REGISTRY_FLOW_WINDOW: int(2).max(100).default(10),
  SHUTDOWN_TIMEOUT_MS: int(0).default(10_000),
  REGISTRY_ENROLLMENT_TOKEN: z
    .string()
    .min(16, "must have at least 16 characters: it is the secret every child registry shows")
    .optional(),
  REGISTRY_PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  QUERY_MAX_DEPTH: int(1).default(DEFAULT_QUERY_LIMITS.maxDepth),
  QUERY_MAX_ALIASES: int(0).default(DEFAULT_QUERY_LIMITS.maxAliases),
  QUERY_MAX_DIRECTIVES: int(0).default(DEFAULT_QUERY_LIMITS.maxDirectives),
  QUERY_MAX_TOKENS: int(1).default(DEFAULT_QUERY_LIMITS.maxTokens),
  QUERY_MAX_COST: int(1).default(DEFAULT_QUERY_LIMITS.maxCost),
  QUERY_ASSUMED_LIST_SIZE: int(1).default(DEFAULT_QUERY_LIMITS.assumedListSize),
  QUERY_MAX_FIELDS: int(1).default(DEFAULT_QUERY_LIMITS.maxFields),
  QUERY_TIMEOUT_MS: int(1).default(DEFAULT_QUERY_LIMITS.timeoutMs),
  REGISTRY_RATE_LIMIT_POINTS: z.coerce
    .number({ error: "must be a whole number of query-cost points (0: no rate limit)" })
    .int("must be a whole number of query-cost points (0: no rate limit)")
    .min(0, "must be 0 (no rate limit) or more query-cost points")
    .default(DEFAULT_RATE_LIMIT.points),
  REGISTRY_RATE_LIMIT_WINDOW_S: z.coerce
    .number({ error: "must be a whole number of seconds, at least 1" })
    .int("must be a whole number of seconds, at least 1")
    .min(1, "must be a whole number of seconds, at least 1")
    .max(86_400, "must be at most 86400 seconds (a day)")
    .default(DEFAULT_RATE_LIMIT.windowSeconds),
  // Unset or empty: no restriction; "none": nowhere.
  REGISTRY_CONNECT_ALLOW: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === "") return undefined;
      const { list, errors } = parseConnectAllow(value);
      for (const message of errors) context.addIssue({ code: "custom", message });
      return list;
    }),
  REGISTRY_SECRET_KEY_NAMES: z.string().default(""),
  ...secretKeysEnv,
  ...authEnv,
});

/**
 * Reads the config from `env` (and the file REGISTRY_CLUSTERS_FILE names, relative to `cwd`);
 * throws one error listing every bad variable and its rule.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): RegistryConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(cwd, e.REGISTRY_DATA_DIR),
    providerModules: e.REGISTRY_PROVIDERS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    clusterPresets: e.REGISTRY_CLUSTERS_FILE
      ? readClusterPresets(e.REGISTRY_CLUSTERS_FILE, cwd)
      : NO_CLUSTER_PRESETS,
    production: e.NODE_ENV === "production",
    logLevel: e.LOG_LEVEL,
    reconciler: {
      enabled: e.RECONCILER_ENABLED === "true",
      concurrency: e.RECONCILER_CONCURRENCY,
      leaseMs: e.RECONCILER_LEASE_MS,
      pollMs: e.RECONCILER_POLL_MS,
      retryBaseMs: e.RECONCILER_RETRY_BASE_MS,
      retryMaxMs: e.RECONCILER_RETRY_MAX_MS,
      resyncMs: e.RECONCILER_RESYNC_MS,
      resyncConcurrency: e.RECONCILER_RESYNC_CONCURRENCY,
      batchSize: e.RECONCILER_BATCH_SIZE,
      connectorRestart: {
        delaysMs: e.REGISTRY_CONNECTOR_RESTART_DELAYS_MS
          ? parseRestartDelays(e.REGISTRY_CONNECTOR_RESTART_DELAYS_MS)!
          : DEFAULT_AUTO_RESTART.delaysMs,
        max: e.REGISTRY_CONNECTOR_RESTART_MAX,
      },
    },
    health: {
      intervalMs: e.REGISTRY_HEALTH_INTERVAL_MS,
      timeoutMs: e.REGISTRY_HEALTH_TIMEOUT_MS,
      concurrency: e.REGISTRY_HEALTH_CONCURRENCY,
    },
    flow: {
      pollMs: e.REGISTRY_FLOW_POLL_MS,
      timeoutMs: e.REGISTRY_FLOW_TIMEOUT_MS,
      concurrency: e.REGISTRY_FLOW_CONCURRENCY,
      window: e.REGISTRY_FLOW_WINDOW,
    },
    index: { waitMs: e.REGISTRY_INDEX_WAIT_MS, pageSize: e.REGISTRY_INDEX_PAGE_SIZE },
    queryLimits: {
      maxDepth: e.QUERY_MAX_DEPTH,
      maxAliases: e.QUERY_MAX_ALIASES,
      maxDirectives: e.QUERY_MAX_DIRECTIVES,
      maxTokens: e.QUERY_MAX_TOKENS,
      maxCost: e.QUERY_MAX_COST,
      assumedListSize: e.QUERY_ASSUMED_LIST_SIZE,
      maxFields: e.QUERY_MAX_FIELDS,
      timeoutMs: e.QUERY_TIMEOUT_MS,
    },
    rateLimit: { points: e.REGISTRY_RATE_LIMIT_POINTS, windowSeconds: e.REGISTRY_RATE_LIMIT_WINDOW_S },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    enrollmentToken: e.REGISTRY_ENROLLMENT_TOKEN,
    publicUrl: e.REGISTRY_PUBLIC_URL,
    secretKeys: secretKeysFrom(e, cwd),
    secretKeyNames: e.REGISTRY_SECRET_KEY_NAMES.split(",")
      .map((name) => name.trim())
      .filter(Boolean),
    auth: authConfigFrom(e, cwd, e.NODE_ENV === "production"),
    connectAllow: e.REGISTRY_CONNECT_ALLOW,
  };
}
