import type { ClusterHealth } from "@stream-registry/core";
import type { Db } from "./db.ts";
import type { Prisma } from "./generated/prisma/client.ts";
import { open } from "./open-db.ts";

/** A probe's outcome as a provider's probe gives it (provider-api's ClusterProbe), or why it failed. */
export type HealthProbe =
  | { ok: true; probe: { latencyMs: number; brokerCount?: number | null | undefined; details?: unknown } }
  | { ok: false; error: string };

/**
 * Records a probe of a cluster. Not in a write transaction and not in the change log: health is an
 * observation, refreshed every interval by whichever registry process probes. A failure keeps
 * `lastUpAt`; a success keeps the last error, so both tell a recent story. A cluster deleted
 * meanwhile is ignored (the foreign key would refuse the row).
 */
export async function recordClusterHealth(
  db: Db,
  clusterId: string,
  outcome: HealthProbe,
  at: Date = new Date(),
): Promise<void> {
  const data = outcome.ok
    ? {
        status: "UP" as const,
        checkedAt: at,
        latencyMs: outcome.probe.latencyMs,
        brokerCount: outcome.probe.brokerCount ?? null,
        details: (outcome.probe.details ?? {}) as Prisma.InputJsonValue,
        lastUpAt: at,
      }
    : {
        status: "DOWN" as const,
        checkedAt: at,
        latencyMs: null,
        brokerCount: null,
        details: {} as Prisma.InputJsonValue,
        lastError: outcome.error,
        lastErrorAt: at,
      };
  await open(db)
    .clusterHealth.upsert({ where: { clusterId }, create: { clusterId, ...data }, update: data })
    .catch((error: unknown) => {
      // The cluster was deleted meanwhile (its foreign key refuses the row): nothing to record.
      if ((error as { code?: string }).code !== "P2003") throw error;
    });
}

/** The stored health of each of `clusterIds` that has been probed. */
export async function findClusterHealth(
  db: Db,
  clusterIds: readonly string[],
): Promise<(ClusterHealth & { clusterId: string })[]> {
  return open(db).clusterHealth.findMany({ where: { clusterId: { in: [...clusterIds] } } });
}
