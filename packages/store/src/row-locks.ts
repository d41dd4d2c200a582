import { Prisma } from "./generated/prisma/client.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/**
 * Row locks for read-then-write rules, now that writers run in parallel (docs/architecture.md,
 * "Writers in parallel"). A rule locks the rows it reads before reading them; the read that
 * follows, a statement of its own, sees every write committed before the lock was granted.
 * Locks are always taken in one order, clusters, then streams, then bindings (by id), so two
 * writers never wait for each other in a circle.
 *
 * Modes, weakest first: "share" keeps the row as it is (no update, no delete) while letting other
 * sharers in; "write" admits one writer of the row at a time (and no sharer) but does not block
 * the key-share locks of foreign-key checks; "delete" is for a row about to be deleted.
 */
export type LockMode = "share" | "write" | "delete";

const CLAUSE: Record<LockMode, string> = {
  share: "FOR SHARE",
  write: "FOR NO KEY UPDATE",
  delete: "FOR UPDATE",
};

/** Locks the cluster named `name`, if there is one. */
export async function lockClusterByName(tx: Tx, name: string, mode: LockMode): Promise<void> {
  await open(tx).$queryRawUnsafe(`SELECT 1 FROM cluster WHERE name = $1 ${CLAUSE[mode]}`, name);
}

/** Locks the stream named `name`, if there is one. */
export async function lockStreamByName(tx: Tx, name: string, mode: LockMode): Promise<void> {
  await open(tx).$queryRawUnsafe(`SELECT 1 FROM stream WHERE name = $1 ${CLAUSE[mode]}`, name);
}

export async function lockStream(tx: Tx, id: string, mode: LockMode): Promise<void> {
  await open(tx).$queryRawUnsafe(`SELECT 1 FROM stream WHERE id = $1::uuid ${CLAUSE[mode]}`, id);
}

/**
 * A statement's part that share-locks a cluster and write-locks a stream, in that order, and
 * yields the stream's id only if both are still as read (their generations) and the stream is not
 * being deleted: a locked row is checked as last committed. For a data-modifying WITH
 * (`locked AS (...)`) whose writes then go `FROM locked`.
 */
export function lockedClusterAndStream(
  cluster: { id: string; generation: number },
  stream: { id: string; generation: number },
): Prisma.Sql {
  // The locks are taken in the order of the FOR clauses: the cluster first, as everywhere.
  return Prisma.sql`
    SELECT s.id FROM cluster c, stream s
    WHERE c.id = ${cluster.id}::uuid AND c.generation = ${cluster.generation}::int
      AND s.id = ${stream.id}::uuid AND s.generation = ${stream.generation}::int AND NOT s.deleting
    FOR SHARE OF c FOR NO KEY UPDATE OF s`;
}
