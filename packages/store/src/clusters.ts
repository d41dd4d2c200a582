import { redactSecrets, type Cluster, type ConfigMaps, type SecretKeyRule } from "@stream-registry/core";
import { touchBindings } from "./bindings.ts";
import { recordChange } from "./change-log.ts";
import type { Db } from "./db.ts";
import { Prisma, type Cluster as ClusterRow } from "./generated/prisma/client.ts";
import type { Tx } from "./transaction.ts";

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

/** Who writes, and which keys are secret: the change log holds what a cluster became, secrets removed. */
export interface ClusterWriter {
  actor: string;
  secrets: SecretKeyRule;
}

export interface ClusterSpec {
  provider: string;
  config: ConfigMaps;
}

export async function findCluster(db: Db, name: string): Promise<Cluster | null> {
  const row = await db.cluster.findUnique({ where: { name } });
  return row && toCluster(row);
}

/** For per-request loaders: one query for many clusters, in no particular order. */
export async function findClustersByIds(db: Db, ids: readonly string[]): Promise<Cluster[]> {
  return (await db.cluster.findMany({ where: { id: { in: [...ids] } } })).map(toCluster);
}

export async function findClustersByNames(db: Db, names: readonly string[]): Promise<Cluster[]> {
  return (await db.cluster.findMany({ where: { name: { in: [...names] } } })).map(toCluster);
}

/** A cluster and how many bindings it has: whether its provider may still change. */
export async function findClusterWithBindingCount(
  db: Db,
  name: string,
): Promise<{ cluster: Cluster; bindings: number } | null> {
  const row = await db.cluster.findUnique({
    where: { name },
    include: { _count: { select: { bindings: true } } },
  });
  if (!row) return null;
  const { _count, ...cluster } = row;
  return { cluster: toCluster(cluster), bindings: _count.bindings };
}

/** A cluster and the streams of a few of its bindings: what a refused delete names. */
export async function findClusterWithSomeStreams(
  db: Db,
  name: string,
  limit: number,
): Promise<{ cluster: Cluster; streams: string[] } | null> {
  const row = await db.cluster.findUnique({
    where: { name },
    include: { bindings: { select: { stream: { select: { name: true } } }, take: limit } },
  });
  if (!row) return null;
  const { bindings, ...cluster } = row;
  return { cluster: toCluster(cluster), streams: bindings.map((b) => b.stream.name) };
}

export async function createCluster(
  tx: Tx,
  name: string,
  spec: ClusterSpec,
  by: ClusterWriter,
): Promise<Cluster> {
  const cluster = toCluster(await tx.cluster.create({ data: { name, ...spec } }));
  await recordChange(tx, {
    entityType: "cluster",
    entityKey: cluster.name,
    action: "created",
    generation: cluster.generation,
    actor: by.actor,
    data: changeData(cluster, by.secrets),
  });
  return cluster;
}

/**
 * A new provider or config, as a new generation. How the cluster is reached may have changed, so
 * every live binding on it is reconciled again. `fqnPrefix` is the namespace as it starts an FQN.
 */
export async function updateCluster(
  tx: Tx,
  id: string,
  spec: ClusterSpec,
  by: ClusterWriter & { fqnPrefix: string },
): Promise<Cluster> {
  const cluster = toCluster(
    await tx.cluster.update({ where: { id }, data: { ...spec, generation: { increment: 1 } } }),
  );
  await recordChange(tx, {
    entityType: "cluster",
    entityKey: cluster.name,
    action: "updated",
    generation: cluster.generation,
    actor: by.actor,
    data: changeData(cluster, by.secrets),
  });
  await touchBindings(tx, { clusterId: cluster.id }, by.fqnPrefix, by.actor);
  return cluster;
}

/** Deletes a cluster without bindings (the database refuses one with bindings). */
export async function deleteCluster(tx: Tx, cluster: Cluster, actor: string): Promise<void> {
  await tx.cluster.delete({ where: { id: cluster.id } });
  await recordChange(tx, {
    entityType: "cluster",
    entityKey: cluster.name,
    action: "deleted",
    generation: cluster.generation,
    actor,
  });
}

/** Clusters whose health was last recorded before `before` (or never), by name, with that status. */
export async function clustersDueForProbe(
  db: Db,
  before: Date,
): Promise<{ cluster: Cluster; status: "UP" | "DOWN" | null }[]> {
  const rows = await db.cluster.findMany({
    where: { OR: [{ health: null }, { health: { checkedAt: { lt: before } } }] },
    include: { health: { select: { status: true } } },
    orderBy: { name: "asc" },
  });
  return rows.map(({ health, ...row }) => ({ cluster: toCluster(row), status: health?.status ?? null }));
}

function changeData(cluster: Cluster, secrets: SecretKeyRule) {
  return { provider: cluster.provider, config: redactSecrets(cluster.config, secrets) };
}
