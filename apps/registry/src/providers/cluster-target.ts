import type { Cluster, Keyring } from "@stream-registry/core";
import type { ClusterTarget } from "@stream-registry/provider-api";
import { openCluster, type Database } from "@stream-registry/store";

/** What it takes to tell a provider about a cluster: the cluster's secrets are opened for it. */
export interface ClusterSecrets {
  db: Database;
  keyring: Keyring;
  namespace: string;
}

/**
 * What a provider is told about a cluster: everything it needs to reach it, its secrets decrypted.
 * Besides a write, the one place they are: for connecting, never for a query. Throws core's
 * UnreadableSecrets naming each secret that cannot be decrypted (a key id not configured, an
 * altered ciphertext), which fails the attempt with that message and nothing else.
 */
export async function clusterTarget(deps: ClusterSecrets, cluster: Cluster): Promise<ClusterTarget> {
  const opened = await openCluster(deps.db.prisma, deps.keyring, cluster);
  return { namespace: deps.namespace, name: cluster.name, config: opened.config };
}
