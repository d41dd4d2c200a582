import { clustersDueForProbe, recordClusterHealth } from "@stream-registry/store";
import { UnreadableSecrets, type Cluster } from "@stream-registry/core";
import { clusterTarget, type ClusterSecrets } from "../providers/cluster-target.ts";
import type { ServiceDeps } from "../services/deps.ts";
import type { HealthSubject } from "./health-monitor.ts";
import { probeCluster } from "./probe.ts";

type Due = { cluster: Cluster; status: "UP" | "DOWN" | null };

/** Clusters, probed by their providers; one whose provider this process lacks is left to others. */
export function clusterProbes(deps: Pick<ServiceDeps, "providers"> & ClusterSecrets): HealthSubject<Due> {
  return {
    kind: "cluster",
    due: (before) => clustersDueForProbe(deps.db.prisma, before),
    async probe({ cluster }, timeoutMs, signal) {
      const provider = deps.providers.get(cluster.provider);
      if (!provider) return undefined;
      const target = await clusterTarget(deps, cluster).catch((error: unknown) => {
        // DOWN, saying which secret cannot be decrypted: the registry cannot reach the cluster.
        if (error instanceof UnreadableSecrets) return { ok: false as const, error: error.message };
        throw error;
      });
      if ("ok" in target) return target;
      return probeCluster(provider, target, timeoutMs, signal);
    },
    record: ({ cluster }, outcome) => recordClusterHealth(deps.db.prisma, cluster.id, outcome),
    lastStatus: ({ status }) => status,
    describe: ({ cluster }) => ({ cluster: cluster.name }),
  };
}
