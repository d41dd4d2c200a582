import { clustersDueForProbe, recordClusterHealth } from "@stream-registry/store";
import type { HealthConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import { forEachConcurrently, Periodic } from "../periodic.ts";
import { clusterTarget } from "../providers/cluster-target.ts";
import type { ServiceDeps } from "../services/deps.ts";
import { probeCluster } from "./probe.ts";

type HealthDeps = Pick<ServiceDeps, "db" | "providers" | "namespace">;

/**
 * Probes every cluster each interval and records what it found in `cluster_health`. Clusters
 * probed recently (by this or another registry process sharing the database) are skipped, so N
 * processes do not probe N times as often.
 */
export class HealthMonitor {
  private readonly periodic: Periodic;

  constructor(
    private readonly deps: HealthDeps,
    private readonly config: HealthConfig,
    private readonly logger: Logger,
  ) {
    this.periodic = new Periodic(
      config.intervalMs,
      (signal) => this.probeDue(signal),
      (error) => this.logger.error({ err: error }, "cluster health round failed"),
    );
  }

  start(): void {
    this.periodic.start();
  }

  stop(timeoutMs: number): Promise<void> {
    return this.periodic.stop(timeoutMs);
  }

  /** Probes the clusters not probed within the last interval. */
  async probeDue(signal: AbortSignal): Promise<void> {
    const { prisma } = this.deps.db;
    // A little slack, so that a cluster probed one interval ago by this loop is due again now.
    const dueBefore = new Date(Date.now() - this.config.intervalMs * 0.9);
    const due = await clustersDueForProbe(prisma, dueBefore);
    await forEachConcurrently(due, this.config.concurrency, async ({ cluster, status: before }) => {
      if (signal.aborted) return;
      const provider = this.deps.providers.get(cluster.provider);
      // Another process may have loaded it; this one cannot say anything about the cluster.
      if (!provider) return;
      const outcome = await probeCluster(
        provider,
        clusterTarget(this.deps.namespace, cluster),
        this.config.timeoutMs,
        signal,
      );
      if (signal.aborted) return;
      await recordClusterHealth(prisma, cluster.id, outcome).catch((error: unknown) =>
        this.logger.error({ err: error, cluster: cluster.name }, "cluster health could not be recorded"),
      );
      const status = outcome.ok ? "UP" : "DOWN";
      if (before !== status) {
        const log = { cluster: cluster.name, status, ...(outcome.ok ? {} : { error: outcome.error }) };
        if (outcome.ok) this.logger.info(log, "cluster health");
        else this.logger.warn(log, "cluster health");
      }
    });
  }
}
