import type { ClusterHealth } from "@stream-registry/core";
import type { ClusterProbe } from "@stream-registry/provider-api";

/** What the API shows: the stored result, or UNKNOWN when there is none or it is stale. */
export interface ClusterHealthModel extends Omit<ClusterHealth, "status" | "checkedAt"> {
  status: "UP" | "DOWN" | "UNKNOWN";
  checkedAt: Date | null;
}

export type ProbeOutcome = { ok: true; probe: ClusterProbe } | { ok: false; error: string };

/** A result older than `staleAfterMs` means nobody probes the cluster any more: UNKNOWN. */
export function healthView(
  row: ClusterHealth | undefined,
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
