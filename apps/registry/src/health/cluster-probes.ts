import { clustersDueForProbe, recordClusterHealth } from "@stream-registry/store";
import type { Cluster } from "@stream-registry/core";
import { clusterTarget } from "../providers/cluster-target.ts";
import type { ServiceDeps } from "../services/deps.ts";
import type { HealthSubject } from "./health-monitor.ts";
import { probeCluster } from "./probe.ts";

type Due = { cluster: Cluster; status: "UP" | "DOWN" | null };

/** Clusters, probed by their providers; one whose provider this process lacks is left to others. */
export function clusterProbes(deps: Pick<ServiceDeps, "db" | "providers" | "namespace">): HealthSubject<Due> {
  return {
    kind: "cluster",
    due: (before) => clustersDueForProbe(deps.db.prisma, before),
    async probe({ cluster }, timeoutMs, signal) {
      const provider = deps.providers.get(cluster.provider);
      if (!provider) return undefined;
      return probeCluster(provider, clusterTarget(deps.namespace, cluster), timeoutMs, signal);
    },
    record: ({ cluster }, outcome) => recordClusterHealth(deps.db.prisma, cluster.id, outcome),
    lastStatus: ({ status }) => status,
    describe: ({ cluster }) => ({ cluster: cluster.name }),
  };
}
