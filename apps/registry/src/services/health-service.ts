import type { ClusterHealth } from "@stream-registry/core";
import { healthView, type ClusterHealthModel } from "../health/cluster-health.ts";

/** How many probe intervals without a probe make a cluster's health UNKNOWN. */
const STALE_AFTER_INTERVALS = 3;

/** The read side of cluster health: a stored probe result becomes what the API shows. */
export class HealthService {
  private readonly staleAfterMs: number | undefined;

  /** `intervalMs` 0 means no periodic probes here: results never go stale by age. */
  constructor(intervalMs: number) {
    this.staleAfterMs = intervalMs > 0 ? intervalMs * STALE_AFTER_INTERVALS : undefined;
  }

  view(row: ClusterHealth | undefined): ClusterHealthModel {
    return healthView(row, this.staleAfterMs);
  }
}
