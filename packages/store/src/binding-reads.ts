import { Phase, type Binding, type Cluster, type Stream } from "@stream-registry/core";
import { BINDING_COLUMNS, toBinding } from "./binding-row.ts";
import { JOINED_CLUSTER_COLUMNS, toCluster, toJoinedCluster, type JoinedClusterRow } from "./cluster-row.ts";
import type { Db } from "./db.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { toStream } from "./stream-row.ts";
import { open } from "./open-db.ts";

/** A binding named by its stream and its cluster, with both. */
export async function findBindingByNames(
  db: Db,
  stream: string,
  cluster: string,
): Promise<{ binding: Binding; stream: Stream; cluster: Cluster } | null> {
  const row = await open(db).binding.findFirst({
    where: { stream: { name: stream }, cluster: { name: cluster } },
    select: { ...BINDING_COLUMNS, stream: true, cluster: true },
  });
  if (!row) return null;
  const { stream: streamRow, cluster: clusterRow, ...binding } = row;
  return { binding: toBinding(binding), stream: toStream(streamRow), cluster: toCluster(clusterRow) };
}

/** A binding with its cluster: what a page of bindings shows, read in one query. */
export type BindingOnCluster = Binding & { cluster: Cluster };

/**
 * For per-request loaders: the bindings of many streams or clusters, each with its cluster, oldest
 * first, and the default first of bindings made in the same millisecond. One query (a join), so that a page of streams with their bindings and
 * clusters costs one round trip less. The columns are toBinding's (binding-row.ts) and toCluster's.
 */
export async function findBindingsOf(
  db: Db,
  of: { streamIds: readonly string[] } | { clusterIds: readonly string[] },
): Promise<BindingOnCluster[]> {
  const [column, ids] =
    "streamIds" in of ? [Prisma.sql`b.stream_id`, of.streamIds] : [Prisma.sql`b.cluster_id`, of.clusterIds];
  const rows = await open(db).$queryRaw<JoinedRow[]>`
    SELECT b.id::text AS id, b.stream_id::text AS "streamId", b.is_default AS "isDefault", b.config, b.producer_config AS "producerConfig",
      b.consumer_config AS "consumerConfig", b.generation, b.observed_generation AS "observedGeneration",
      b.phase::text AS phase, b.message, b.status_updated_at AS "statusUpdatedAt",
      b.created_at AS "createdAt", b.updated_at AS "updatedAt", ${JOINED_CLUSTER_COLUMNS}
    FROM binding b JOIN cluster c ON c.id = b.cluster_id
    WHERE ${column} = ANY(${[...ids]}::uuid[])
    ORDER BY b.created_at, b.is_default DESC, b.id`;
  return rows.map((row) => ({ ...toBinding(row), cluster: toJoinedCluster(row) }));
}

type JoinedRow = Parameters<typeof toBinding>[0] & JoinedClusterRow;

/** An ONLINE binding as the data-in-flight poller reads it: its id, its stream's name, its cluster. */
export interface WatchedBinding {
  id: string;
  streamName: string;
  cluster: Cluster;
}

/**
 * Every ONLINE binding with its stream's name and its cluster, by cluster and stream name: what the
 * data-in-flight poller reads each round (one query, whatever the number of bindings).
 */
export async function findOnlineBindings(db: Db): Promise<WatchedBinding[]> {
  const rows = await open(db).$queryRaw<(JoinedClusterRow & { id: string; streamName: string })[]>`
    SELECT b.id::text AS id, s.name AS "streamName", ${JOINED_CLUSTER_COLUMNS}
    FROM binding b JOIN stream s ON s.id = b.stream_id JOIN cluster c ON c.id = b.cluster_id
    WHERE b.phase = ${Phase.ONLINE}::"Phase"
    ORDER BY c.name, s.name`;
  return rows.map((row) => ({ id: row.id, streamName: row.streamName, cluster: toJoinedCluster(row) }));
}
