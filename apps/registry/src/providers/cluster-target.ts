import type { ClusterTarget } from "@stream-registry/provider-api";
import type { Cluster } from "@stream-registry/core";

/** What a provider is told about a cluster: everything it needs to reach it. */
export function clusterTarget(namespace: string, cluster: Cluster): ClusterTarget {
  return { namespace, name: cluster.name, config: cluster.config };
}
