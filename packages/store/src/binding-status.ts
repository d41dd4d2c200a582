import {
  Phase,
  type Cluster,
  type ConfigMaps,
  type PendingCreate,
  type ResourceStatus,
  type Stream,
} from "@stream-registry/core";
import { BINDING_JOB } from "./bindings.ts";
import { JOINED_CLUSTER_COLUMNS, toJoinedCluster, type JoinedClusterRow } from "./cluster-row.ts";
import type { Db } from "./db.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { defineResourceTable } from "./resource-table.ts";
import { JOINED_STREAM_COLUMNS, toJoinedStream, type JoinedStreamRow } from "./stream-row.ts";
import { open } from "./open-db.ts";

/** Where bindings keep their status block and observations: the reconcile kernel's first kind. */
export const BINDING_RESOURCE = defineResourceTable({
  kind: BINDING_JOB,
  table: "binding",
  observationTable: "binding_observation",
  observationKey: "binding_id",
});

/** What the reconciler reads of a binding: its desired state and status, with its stream and cluster. */
export interface BindingToReconcile extends ResourceStatus {
  streamId: string;
  config: ConfigMaps;
  producerConfig: ConfigMaps;
  consumerConfig: ConfigMaps;
  stream: Stream;
  cluster: Cluster;
}

/**
 * A binding with its stream and cluster, in one statement (a join): the reconciler reads one per
 * job, so the three reads Prisma's `include` makes would be most of a reconcile's round trips.
 */
const RECONCILE_READ = Prisma.sql`
  SELECT b.id::text AS id, b.config, b.producer_config AS "producerConfig", b.consumer_config AS "consumerConfig",
    b.generation, b.observed_generation AS "observedGeneration", b.pending_creates AS "pendingCreates",
    b.phase::text AS phase,
    ${JOINED_STREAM_COLUMNS}, ${JOINED_CLUSTER_COLUMNS}
  FROM binding b JOIN stream s ON s.id = b.stream_id JOIN cluster c ON c.id = b.cluster_id`;

type ReconcileRow = Omit<BindingToReconcile, "stream" | "cluster"> & JoinedStreamRow & JoinedClusterRow;

function toBindingToReconcile(row: ReconcileRow): BindingToReconcile {
  return {
    id: row.id,
    streamId: row.streamId,
    config: row.config,
    producerConfig: row.producerConfig,
    consumerConfig: row.consumerConfig,
    generation: row.generation,
    observedGeneration: row.observedGeneration,
    pendingCreates: row.pendingCreates as PendingCreate[] | null,
    phase: row.phase,
    stream: toJoinedStream(row),
    cluster: toJoinedCluster(row),
  };
}

export async function findBindingToReconcile(db: Db, id: string): Promise<BindingToReconcile | null> {
  const [row] = await open(db).$queryRaw<ReconcileRow[]>`${RECONCILE_READ} WHERE b.id = ${id}::uuid`;
  return row ? toBindingToReconcile(row) : null;
}

/** The bindings of `ids` that still exist, each with its stream and cluster, in one statement. */
export async function findBindingsToReconcile(db: Db, ids: readonly string[]): Promise<BindingToReconcile[]> {
  const rows = await open(db).$queryRaw<
    ReconcileRow[]
  >`${RECONCILE_READ} WHERE b.id = ANY(${[...ids]}::uuid[])`;
  return rows.map(toBindingToReconcile);
}

/**
 * ONLINE bindings not observed since `before` (or never), in id order after `after`, at most
 * `limit`; bindings on clusters of `skipProvider` are left out (their observation never changes).
 */
export async function findBindingsToObserve(
  db: Db,
  query: { before: Date; after: string | undefined; limit: number; skipProvider: string },
): Promise<BindingToReconcile[]> {
  const rows = await open(db).$queryRaw<ReconcileRow[]>`${RECONCILE_READ}
    LEFT JOIN binding_observation o ON o.binding_id = b.id
    WHERE b.phase = ${Phase.ONLINE}::"Phase" AND c.provider <> ${query.skipProvider}
      AND (o.observed_at IS NULL OR o.observed_at < ${query.before})
      AND b.id > ${query.after ?? "00000000-0000-0000-0000-000000000000"}::uuid
    ORDER BY b.id LIMIT ${query.limit}`;
  return rows.map(toBindingToReconcile);
}
