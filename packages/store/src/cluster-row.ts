import type { Cluster, ConfigMaps } from "@stream-registry/core";
import { Prisma, type Cluster as ClusterRow } from "./generated/prisma/client.ts";

// A cluster row as store reads it, alone or joined beside another table's: the row mappers
// binding, stream and cluster modules share (so none of them imports another's writes).

/** The one place a cluster row becomes a Cluster: its config was checked before it was stored. */
export function toCluster(row: ClusterRow): Cluster {
  return { ...row, config: row.config as ConfigMaps };
}

/** A cluster's columns as a join reads them beside another table's (`c`), prefixed "cluster". */
export const JOINED_CLUSTER_COLUMNS = Prisma.sql`
  c.id::text AS "clusterId", c.name AS "clusterName", c.provider AS "clusterProvider",
  c.config AS "clusterConfig", c.generation AS "clusterGeneration", c.created_at AS "clusterCreatedAt",
  c.updated_at AS "clusterUpdatedAt"`;

export interface JoinedClusterRow {
  clusterId: string;
  clusterName: string;
  clusterProvider: string;
  clusterConfig: Prisma.JsonValue;
  clusterGeneration: number;
  clusterCreatedAt: Date;
  clusterUpdatedAt: Date;
}

export function toJoinedCluster(row: JoinedClusterRow): Cluster {
  return toCluster({
    id: row.clusterId,
    name: row.clusterName,
    provider: row.clusterProvider,
    config: row.clusterConfig,
    generation: row.clusterGeneration,
    createdAt: row.clusterCreatedAt,
    updatedAt: row.clusterUpdatedAt,
  });
}
