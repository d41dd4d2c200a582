import {
  Phase,
  type Cluster,
  type PendingCreate,
  type ResourceStatus,
  type Stream,
} from "@stream-registry/core";
import { BINDING_JOB } from "./bindings.ts";
import { JOINED_CLUSTER_COLUMNS, toJoinedCluster, type JoinedClusterRow } from "./clusters.ts";
import type { Db } from "./db.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { defineResourceTable } from "./resource-table.ts";
import { toStream } from "./streams.ts";

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
  config: Prisma.JsonValue;
  producerConfig: Prisma.JsonValue;
  consumerConfig: Prisma.JsonValue;
  stream: Stream;
  cluster: Cluster;
}

/**
 * A binding with its stream and cluster, in one statement (a join): the reconciler reads one per
 * job, so the three reads Prisma's `include` makes would be most of a reconcile's round trips.
 */
const RECONCILE_READ = Prisma.sql`
  SELECT b.id::text AS id, b.stream_id::text AS "streamId", b.config, b.producer_config AS "producerConfig", b.consumer_config AS "consumerConfig",
    b.generation, b.observed_generation AS "observedGeneration", b.pending_creates AS "pendingCreates",
    b.phase::text AS phase,
    s.name AS "streamName", s.config AS "streamConfig", s.producer_config AS "streamProducerConfig",
    s.consumer_config AS "streamConsumerConfig", s.generation AS "streamGeneration",
    s.deleting AS "streamDeleting", s.created_at AS "streamCreatedAt", s.updated_at AS "streamUpdatedAt",
    ${JOINED_CLUSTER_COLUMNS}
  FROM binding b JOIN stream s ON s.id = b.stream_id JOIN cluster c ON c.id = b.cluster_id`;

type ReconcileRow = Omit<BindingToReconcile, "stream" | "cluster"> &
  JoinedClusterRow & {
    streamName: string;
    streamConfig: Prisma.JsonValue;
    streamProducerConfig: Prisma.JsonValue;
    streamConsumerConfig: Prisma.JsonValue;
    streamGeneration: number;
    streamDeleting: boolean;
    streamCreatedAt: Date;
    streamUpdatedAt: Date;
  };

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
    stream: toStream({
      id: row.streamId,
      name: row.streamName,
      config: row.streamConfig,
      producerConfig: row.streamProducerConfig,
      consumerConfig: row.streamConsumerConfig,
      generation: row.streamGeneration,
      deleting: row.streamDeleting,
      createdAt: row.streamCreatedAt,
      updatedAt: row.streamUpdatedAt,
    }),
    cluster: toJoinedCluster(row),
  };
}

export async function findBindingToReconcile(db: Db, id: string): Promise<BindingToReconcile | null> {
  const [row] = await db.$queryRaw<ReconcileRow[]>`${RECONCILE_READ} WHERE b.id = ${id}::uuid`;
  return row ? toBindingToReconcile(row) : null;
}

/**
 * ONLINE bindings not observed since `before` (or never), in id order after `after`, at most
 * `limit`; bindings on clusters of `skipProvider` are left out (their observation never changes).
 */
export async function findBindingsToObserve(
  db: Db,
  query: { before: Date; after: string | undefined; limit: number; skipProvider: string },
): Promise<BindingToReconcile[]> {
  const rows = await db.$queryRaw<ReconcileRow[]>`${RECONCILE_READ}
    LEFT JOIN binding_observation o ON o.binding_id = b.id
    WHERE b.phase = ${Phase.ONLINE}::"Phase" AND c.provider <> ${query.skipProvider}
      AND (o.observed_at IS NULL OR o.observed_at < ${query.before})
      AND b.id > ${query.after ?? "00000000-0000-0000-0000-000000000000"}::uuid
    ORDER BY b.id LIMIT ${query.limit}`;
  return rows.map(toBindingToReconcile);
}
