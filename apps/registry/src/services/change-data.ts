import { redactSecrets, type ConfigMaps } from "@stream-registry/core";
import type { Prisma } from "@stream-registry/store";

interface WithConfigSet {
  config: unknown;
  producerConfig: unknown;
  consumerConfig: unknown;
}

/**
 * What a stream or binding became, for its change-log entry. Secrets are removed: the log is
 * an audit trail and the feed parent registries read.
 */
export function configSetData(row: WithConfigSet): Prisma.InputJsonValue {
  return {
    config: redactSecrets(row.config as ConfigMaps),
    producerConfig: redactSecrets(row.producerConfig as ConfigMaps),
    consumerConfig: redactSecrets(row.consumerConfig as ConfigMaps),
  };
}

/** What a cluster became, for its change-log entry. */
export function clusterData(row: { provider: string; config: unknown }): Prisma.InputJsonValue {
  return { provider: row.provider, config: redactSecrets(row.config as ConfigMaps) };
}
