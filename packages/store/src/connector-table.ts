import type { ConnectorRole, PendingCreate, StreamConnector } from "@stream-registry/core";
import { Prisma } from "./generated/prisma/client.ts";
import { defineResourceTable, type ResourceTable } from "./resource-table.ts";

/**
 * Where stream sources and sinks keep their rows: a table each (stream_source, stream_sink) with
 * the same columns, read and written by one code path (connector-reads.ts, connector-writes.ts)
 * through the role's ResourceTable. Kinds of the reconcile kernel: "source" and "sink".
 */
export const CONNECTOR_RESOURCES: Readonly<Record<ConnectorRole, ResourceTable>> = {
  source: defineResourceTable({
    kind: "source",
    table: "stream_source",
    observationTable: "stream_source_observation",
    observationKey: "source_id",
  }),
  sink: defineResourceTable({
    kind: "sink",
    table: "stream_sink",
    observationTable: "stream_sink_observation",
    observationKey: "sink_id",
  }),
};

/** A row's columns as a StreamConnector's fields, of the table aliased `k`. */
export const CONNECTOR_SQL_COLUMNS = Prisma.sql`
  k.id::text AS id, k.name, k.cluster_id::text AS "clusterId", k.type, k.config,
  k.desired_state::text AS "desiredState", k.generation, k.observed_generation AS "observedGeneration",
  k.pending_creates AS "pendingCreates", k.phase::text AS phase, k.message,
  k.status_updated_at AS "statusUpdatedAt", k.auto_restarts AS "autoRestarts",
  k.last_restart_at AS "lastRestartAt", k.created_at AS "createdAt", k.updated_at AS "updatedAt"`;

export type ConnectorRow = Omit<StreamConnector, "role"> & { pendingCreates: unknown };

/** A source or sink with its create journal: what the reconciler reads. */
export type ConnectorWithJournal = StreamConnector & { pendingCreates: PendingCreate[] | null };

/** The one place a row becomes a StreamConnector (its config was checked before it was stored). */
export function toConnector(role: ConnectorRole, row: ConnectorRow): ConnectorWithJournal {
  return { ...row, role, pendingCreates: row.pendingCreates as PendingCreate[] | null };
}
