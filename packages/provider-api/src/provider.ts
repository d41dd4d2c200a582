import type { ConfigMap } from "@stream-registry/core";
import type { ProviderRuntime } from "./connect-policy.ts";
import type { ConfigIssue } from "./errors.ts";
import type { FlowObserver } from "./flow.ts";
import type { StreamInfrastructureManager } from "./infrastructure.ts";
import type { StreamRelocationManager, StreamReplicationManager } from "./replication.ts";
import type { SchemaManager } from "./schema.ts";
import type { StreamSinkManager, StreamSourceManager } from "./connectors.ts";

/** Where a config map appears. */
export type ConfigScope = "cluster" | "stream" | "producer" | "consumer";

/** A config map a provider owns, e.g. "apache.kafka": documented, and validated wherever it appears. */
export interface ConfigMapDefinition {
  name: string;
  description: string;
  /** Scopes the map must be present in, e.g. ["cluster"] for connection settings. */
  requiredIn?: readonly ConfigScope[];
  /** Issues with one map's keys and values; field paths are relative to the map, e.g. ["partitions"]. */
  validate?(map: ConfigMap, scope: ConfigScope): ConfigIssue[];
  /**
   * Keys of this map that hold secrets although core's rule (`isSecretKey`: passwords, tokens,
   * API keys, ...) does not recognize their names, e.g. ["webhook"]. The registry treats them as it
   * treats core's: stored, never shown (queries and the change log show "********"), never
   * filterable, and an update giving one always counts as a change.
   */
  secretKeys?: readonly string[];
}

/**
 * A stream provider: a plugin that realizes the registry's desired state on one kind of platform.
 * Export it as a named constant: `export const kafkaProvider = { ... } satisfies StreamProvider`.
 * Only `infrastructure` is required; a provider without e.g. `schemas` does not support schemas.
 * Every realized kind is managed on one shape, ResourceManager (resource-manager.ts): `sources`,
 * `sinks` and `replication` are ones, and the bindings of `infrastructure` are one through
 * `bindingManager`.
 */
export interface StreamProvider {
  /** What clusters name in `provider`, e.g. "kafka". */
  readonly kind: string;
  readonly description: string;
  readonly configMaps: readonly ConfigMapDefinition[];
  readonly infrastructure: StreamInfrastructureManager;
  readonly schemas?: SchemaManager;
  readonly sources?: StreamSourceManager;
  readonly sinks?: StreamSinkManager;
  readonly replication?: StreamReplicationManager;
  readonly relocation?: StreamRelocationManager;
  /** Reads data in flight (end offsets, consumer groups, lag) for the registry's background poller. */
  readonly flow?: FlowObserver;
  /**
   * Called once, before any other call, with what the registry allows: `connect`, where it may
   * connect. A provider that connects to addresses a cluster's config does not name (brokers a
   * Kafka cluster advertises) asks `connect` before each such connection.
   */
  registryWillStart?(runtime: ProviderRuntime): void;
  /** Releases connections; called once when the registry stops. */
  close?(): Promise<void>;
}
