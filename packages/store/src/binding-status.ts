import {
  Phase,
  type Cluster,
  type PendingCreate,
  type ResourceStatus,
  type Stream,
} from "@stream-registry/core";
import { BINDING_JOB } from "./bindings.ts";
import { toCluster } from "./clusters.ts";
import type { Db } from "./db.ts";
import type { Prisma } from "./generated/prisma/client.ts";
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

const INCLUDE = { stream: true, cluster: true } as const;
type Row = Prisma.BindingGetPayload<{ include: typeof INCLUDE }>;

function toBindingToReconcile(row: Row): BindingToReconcile {
  return {
    ...row,
    pendingCreates: row.pendingCreates as PendingCreate[] | null,
    stream: toStream(row.stream),
    cluster: toCluster(row.cluster),
  };
}

export async function findBindingToReconcile(db: Db, id: string): Promise<BindingToReconcile | null> {
  const row = await db.binding.findUnique({ where: { id }, include: INCLUDE });
  return row && toBindingToReconcile(row);
}

/**
 * ONLINE bindings not observed since `before` (or never), in id order after `after`, at most
 * `limit`; bindings on clusters of `skipProvider` are left out (their observation never changes).
 */
export async function findBindingsToObserve(
  db: Db,
  query: { before: Date; after: string | undefined; limit: number; skipProvider: string },
): Promise<BindingToReconcile[]> {
  const rows = await db.binding.findMany({
    where: {
      phase: Phase.ONLINE,
      cluster: { provider: { not: query.skipProvider } },
      OR: [{ observation: null }, { observation: { observedAt: { lt: query.before } } }],
      ...(query.after ? { id: { gt: query.after } } : {}),
    },
    include: INCLUDE,
    orderBy: { id: "asc" },
    take: query.limit,
  });
  return rows.map(toBindingToReconcile);
}
