import { Prisma } from "./generated/prisma/client.ts";
import type { Db, DbClient } from "./db.ts";
import type { Tx } from "./transaction.ts";
import { open, openClient } from "./open-db.ts";

/** A leased reconcile request. `seq` identifies the request the worker saw. */
export interface LeasedJob {
  id: bigint;
  kind: string;
  targetId: string;
  seq: number;
  attempts: number;
}

/**
 * Asks for `targetId` to be reconciled. Called inside the transaction that changed the desired
 * state, so the request is durable exactly when the change is. A pending request for the same
 * target is bumped instead of duplicated: reconciling reads the latest desired state anyway.
 */
export async function enqueueJob(tx: Tx, kind: string, targetId: string): Promise<void> {
  await open(tx).$executeRaw`${jobInsertSql(kind, targetId)}`;
}

/**
 * enqueueJob's statement, not run: for a statement that makes the change and asks for its job at
 * once; `from` (e.g. `FROM created`) asks only if that part wrote a row.
 */
export function jobInsertSql(kind: string, targetId: string, from: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO job (kind, target_id) SELECT ${kind}, ${targetId} ${from}
    ON CONFLICT (kind, target_id) DO UPDATE
      SET seq = job.seq + 1, run_at = now(), attempts = 0, last_error = NULL`;
}

/**
 * Leases up to `limit` due jobs for `worker`: only of `filter.kind` if given, none of
 * `filter.notKinds`. SKIP LOCKED lets several registry processes share one database without
 * handing the same job to two of them; an expired lease (a crashed worker) makes the job due again.
 */
export async function leaseJobs(
  prisma: DbClient,
  worker: string,
  limit: number,
  leaseMs: number,
  filter: { kind?: string; notKinds?: readonly string[] } = {},
): Promise<LeasedJob[]> {
  const kind = filter.kind ?? null;
  const rows = await openClient(prisma).$queryRaw<
    { id: bigint; kind: string; target_id: string; seq: number; attempts: number }[]
  >`
    UPDATE job SET leased_by = ${worker},
      leased_until = now() + make_interval(secs => ${leaseMs / 1000}::float8),
      attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM job
      WHERE run_at <= now() AND (leased_until IS NULL OR leased_until < now())
        AND (${kind}::text IS NULL OR kind = ${kind}) AND NOT (kind = ANY(${[...(filter.notKinds ?? [])]}::text[]))
      ORDER BY run_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, kind, target_id, seq, attempts`;
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    targetId: r.target_id,
    seq: r.seq,
    attempts: r.attempts,
  }));
}

/** Keeps a lease alive while a slow provider call runs. */
export async function extendLease(prisma: DbClient, job: LeasedJob, worker: string, leaseMs: number) {
  await openClient(prisma).$executeRaw`
    UPDATE job SET leased_until = now() + make_interval(secs => ${leaseMs / 1000}::float8)
    WHERE id = ${job.id} AND leased_by = ${worker}`;
}

/** A leased job and the worker holding it: what finishing the job needs. */
export interface JobLease {
  job: LeasedJob;
  worker: string;
}

/**
 * Marks the request done. If a newer request for the same target arrived meanwhile (seq moved),
 * the row stays and becomes due at once, so that newer desired state is reconciled too.
 */
export async function completeJob(db: Db, job: LeasedJob, worker: string): Promise<void> {
  await open(db).$executeRaw`WITH ${jobCompletionSql({ job, worker })} SELECT 1`;
}

/**
 * completeJob's statements, as parts of a WITH (`done`, `released`): for a statement that records
 * what the job did and finishes the job at once.
 */
export function jobCompletionSql({ job, worker }: JobLease): Prisma.Sql {
  return Prisma.sql`
    done AS (DELETE FROM job WHERE id = ${job.id} AND seq = ${job.seq} AND leased_by = ${worker} RETURNING id),
    released AS (
      UPDATE job SET leased_by = NULL, leased_until = NULL
        WHERE id = ${job.id} AND leased_by = ${worker} AND NOT EXISTS (SELECT FROM done))`;
}

/** Schedules another attempt after `delayMs`, or at once if a newer request arrived meanwhile. */
export async function retryJob(
  prisma: DbClient,
  job: LeasedJob,
  worker: string,
  delayMs: number,
  error: string,
): Promise<void> {
  await openClient(prisma).$executeRaw`
    UPDATE job SET leased_by = NULL, leased_until = NULL, last_error = ${error},
      run_at = CASE WHEN seq = ${job.seq}
        THEN now() + make_interval(secs => ${delayMs / 1000}::float8) ELSE now() END
    WHERE id = ${job.id} AND leased_by = ${worker}`;
}

export async function releaseJob(prisma: DbClient, job: LeasedJob, worker: string): Promise<void> {
  await openClient(prisma).$executeRaw`
    UPDATE job SET leased_by = NULL, leased_until = NULL WHERE id = ${job.id} AND leased_by = ${worker}`;
}

/** Gives back every lease of a stopping worker so that another process picks the jobs up at once. */
export async function releaseAllLeases(prisma: DbClient, worker: string): Promise<number> {
  return openClient(prisma)
    .$executeRaw`UPDATE job SET leased_by = NULL, leased_until = NULL WHERE leased_by = ${worker}`;
}
