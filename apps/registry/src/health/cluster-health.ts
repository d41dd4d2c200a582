import type { ClusterProbe } from "@stream-registry/provider-api";
import type { Prisma, PrismaClient } from "@stream-registry/store";

/** A stored probe result, as `cluster_health` holds it. */
export interface ClusterHealthRow {
  status: "UP" | "DOWN";
  checkedAt: Date;
  latencyMs: number | null;
  brokerCount: number | null;
  details: unknown;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastUpAt: Date | null;
}

/** What the API shows: the stored result, or UNKNOWN when there is none or it is stale. */
export interface ClusterHealthModel extends Omit<ClusterHealthRow, "status" | "checkedAt"> {
  status: "UP" | "DOWN" | "UNKNOWN";
  checkedAt: Date | null;
}

export type ProbeOutcome = { ok: true; probe: ClusterProbe } | { ok: false; error: string };

/**
 * Records a probe of a cluster. Not under the write lock and not in the change log: health is an
 * observation, refreshed every interval by whichever registry process probes. A failure keeps
 * `lastUpAt`; a success keeps the last error, so both tell a recent story. A cluster deleted
 * meanwhile is ignored (the foreign key would refuse the row).
 */
export async function recordProbe(
  prisma: PrismaClient,
  clusterId: string,
  outcome: ProbeOutcome,
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
  await prisma.clusterHealth
    .upsert({ where: { clusterId }, create: { clusterId, ...data }, update: data })
    .catch((error: unknown) => {
      // The cluster was deleted meanwhile (its foreign key refuses the row): nothing to record.
      if ((error as { code?: string }).code !== "P2003") throw error;
    });
}

/** A result older than `staleAfterMs` means nobody probes the cluster any more: UNKNOWN. */
export function healthView(
  row: ClusterHealthRow | undefined,
  staleAfterMs: number | undefined,
  now: Date = new Date(),
): ClusterHealthModel {
  if (!row) {
    return {
      status: "UNKNOWN",
      checkedAt: null,
      latencyMs: null,
      brokerCount: null,
      details: null,
      lastError: null,
      lastErrorAt: null,
      lastUpAt: null,
    };
  }
  const stale = staleAfterMs !== undefined && now.getTime() - row.checkedAt.getTime() > staleAfterMs;
  return { ...row, status: stale ? "UNKNOWN" : row.status };
}
