import { Phase, type ResourceStatus } from "@stream-registry/core";
import { changeInsertSql, recordChange, type ChangeRecord } from "./change-log.ts";
import { Prisma } from "./generated/prisma/client.ts";
import type { Db } from "./db.ts";
import { enqueueJob, jobCompletionSql, type JobLease } from "./job-queue.ts";
import { resourcePhaseUpdate, writeResourcePhase } from "./resource-phase.ts";
import {
  deleteResourceObservation,
  observationUpsert,
  type ObservationReport,
} from "./resource-observations.ts";
import type { ResourceTable } from "./resource-table.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/** The attempt a status write is about: the resource's key and name, and what the attempt read. */
export interface ResourceAttempt {
  id: string;
  /** How the change log names it, e.g. a binding's FQN. */
  name: string;
  /** The generation the attempt worked from; undefined if it never read the resource. */
  generation?: number | undefined;
}

/** A failed attempt: the provider's words, and what to show while a retry is pending. */
export interface AttemptFailure {
  message: string;
  retryMessage: string;
  /** The provider said trying again cannot help. */
  permanent: boolean;
}

/** The reconciler's change-log entry for a resource whose phase it changed. */
function statusChange(
  resource: ResourceTable,
  name: string,
  generation: number,
  status: { phase: Phase; message?: string | null },
): ChangeRecord {
  // Every resource kind is an entity of the change log, under its job kind.
  return {
    entityType: resource.kind,
    entityKey: name,
    action: "status",
    generation,
    actor: "reconciler",
    data: status,
  };
}

function recordStatus(
  tx: Tx,
  resource: ResourceTable,
  name: string,
  generation: number,
  status: { phase: Phase; message?: string | null },
): Promise<void> {
  return recordChange(tx, statusChange(resource, name, generation, status));
}

/**
 * The generation `read` had was realized. Only it may turn ONLINE: a newer desired state, or a
 * delete that arrived meanwhile, has its own job and is not overwritten, yet records that this
 * generation was realized, so that the next attempt updates rather than creates. One statement:
 * the status, the observation, the change-log entry and (given its `lease`) the job's completion
 * are written together or not at all.
 */
export async function recordResourceRealized(
  db: Db,
  resource: ResourceTable,
  read: ResourceStatus,
  name: string,
  observation: ObservationReport | undefined,
  lease?: JobLease,
): Promise<void> {
  const { phase, sql: realize } = resourcePhaseUpdate(
    resource,
    { id: read.id, generation: read.generation, phase: { not: Phase.DELETING } },
    { from: read.phase, event: "realized" },
    { observedGeneration: read.generation, clearJournal: true, message: observation?.message ?? null },
  );
  const observed = observation
    ? Prisma.sql`, observed AS (${observationUpsert(resource, read.id, observation)})`
    : Prisma.empty;
  const logged =
    read.phase !== phase
      ? Prisma.sql`, logged AS (${changeInsertSql(statusChange(resource, name, read.generation, { phase }), Prisma.sql`FROM realized`)})`
      : Prisma.empty;
  await open(db).$executeRaw`
    WITH realized AS (${realize}),
    behind AS (
      UPDATE ${resource.table} SET observed_generation = ${read.generation}::int, pending_creates = '[]'::jsonb
        WHERE id = ${read.id}::uuid AND NOT EXISTS (SELECT FROM realized)
          AND (observed_generation IS NULL OR observed_generation < ${read.generation}::int))
    ${observed} ${logged} ${lease ? Prisma.sql`, ${jobCompletionSql(lease)}` : Prisma.empty}
    SELECT count(*) FROM realized`;
}

/**
 * A failed attempt on the generation the attempt read (none read: the latest). A permanent one
 * makes the resource FAILED, except while it is being deleted: a deletion is never abandoned.
 * Otherwise only the message changes while a retry is pending. Says whether the job is finished
 * ("failed") or is to be tried again ("retry", also when the resource is gone or moved on).
 */
export async function recordResourceFailure(
  tx: Tx,
  resource: ResourceTable,
  attempt: ResourceAttempt,
  failure: AttemptFailure,
): Promise<"failed" | "retry"> {
  // Locked: the phase written below follows from the one read here.
  const [row] = await open(tx).$queryRaw<{ generation: number; phase: Phase }[]>`
    SELECT generation, phase FROM ${resource.table} WHERE id = ${attempt.id}::uuid FOR NO KEY UPDATE`;
  if (!row || (attempt.generation !== undefined && row.generation !== attempt.generation)) return "retry";
  const final = failure.permanent && row.phase !== Phase.DELETING;
  if (!final) {
    await open(tx).$executeRaw`
      UPDATE ${resource.table} SET message = ${failure.retryMessage}, status_updated_at = ${new Date()}
        WHERE id = ${attempt.id}::uuid`;
    return "retry";
  }
  const { phase } = await writeResourcePhase(
    tx,
    resource,
    { id: attempt.id },
    { from: row.phase, event: "failed" },
    { message: failure.message },
  );
  if (phase !== row.phase) {
    await recordStatus(tx, resource, attempt.name, row.generation, { phase, message: failure.message });
  }
  return "failed";
}

/**
 * The resource is gone from its platform: back to PENDING (core's "vanished"), its observation
 * forgotten and `observedGeneration` cleared (nothing is realized any more, so the reconciler
 * creates rather than updates), a reconcile job and a status entry in the change log. The
 * generation stays: the desired state did not change. False if it moved on since `read`.
 */
export async function markResourceVanished(
  tx: Tx,
  resource: ResourceTable,
  read: { id: string; generation: number },
  name: string,
  message: string,
): Promise<boolean> {
  const { phase, written } = await writeResourcePhase(
    tx,
    resource,
    { id: read.id, generation: read.generation, phase: Phase.ONLINE },
    { from: Phase.ONLINE, event: "vanished" },
    { observedGeneration: null, message },
  );
  if (!written) return false;
  await deleteResourceObservation(tx, resource, read.id);
  await enqueueJob(tx, resource.kind, read.id);
  await recordStatus(tx, resource, name, read.generation, { phase, message });
  return true;
}

/**
 * A resource being deleted is gone from its platform: its row goes (with its observation), and the
 * change log says so. False if it is not being deleted (any more): nothing was removed.
 */
export async function removeDeletedResource(
  tx: Tx,
  resource: ResourceTable,
  read: { id: string; generation: number },
  name: string,
): Promise<boolean> {
  await deleteResourceObservation(tx, resource, read.id);
  const removed = await open(tx).$executeRaw`
    DELETE FROM ${resource.table} WHERE id = ${read.id}::uuid AND phase = ${Phase.DELETING}::"Phase"`;
  if (removed === 0) return false;
  await recordChange(tx, {
    entityType: resource.kind,
    entityKey: name,
    action: "deleted",
    generation: read.generation,
    actor: "reconciler",
  });
  return true;
}

/**
 * Live resources of a kind not observed since `before` (or never), in id order after `after`, at
 * most `limit`: the ids a resync observes next. A kind whose resources need a narrower choice (a
 * binding on a registry-only cluster is never observed) asks its own store instead.
 */
export async function findResourcesToObserve(
  db: Db,
  resource: ResourceTable,
  query: { before: Date; after: string | undefined; limit: number },
): Promise<string[]> {
  const rows = await open(db).$queryRaw<{ id: string }[]>`
    SELECT r.id::text AS id FROM ${resource.table} r
      LEFT JOIN ${resource.observations} o ON o.${resource.observationKey} = r.id
      WHERE r.phase = ${Phase.ONLINE}::"Phase" AND (o.observed_at IS NULL OR o.observed_at < ${query.before})
        AND r.id > ${query.after ?? "00000000-0000-0000-0000-000000000000"}::uuid
      ORDER BY r.id LIMIT ${query.limit}`;
  return rows.map((row) => row.id);
}
