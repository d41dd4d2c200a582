import type { Tx } from "./transaction.ts";

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
  await tx.$queryRawUnsafe(`SELECT 1 FROM cluster WHERE name = $1 ${CLAUSE[mode]}`, name);
}

export async function lockCluster(tx: Tx, id: string, mode: LockMode): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT 1 FROM cluster WHERE id = $1::uuid ${CLAUSE[mode]}`, id);
}

/** Locks the stream named `name`, if there is one. */
export async function lockStreamByName(tx: Tx, name: string, mode: LockMode): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT 1 FROM stream WHERE name = $1 ${CLAUSE[mode]}`, name);
}

export async function lockStream(tx: Tx, id: string, mode: LockMode): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT 1 FROM stream WHERE id = $1::uuid ${CLAUSE[mode]}`, id);
}

/** What a binding's writer checks of its stream and cluster (`lockClusterAndStream`). */
export interface LockedClusterAndStream {
  clusterGeneration: number;
  streamGeneration: number;
  streamDeleting: boolean;
}

/**
 * Share-locks a cluster and write-locks a stream, in that order, and reads what a binding's writer
 * checks of them, in one statement: a row is read as it is once locked (its last committed
 * version), so no second read is needed. Null if either is gone.
 */
export async function lockClusterAndStream(
  tx: Tx,
  clusterId: string,
  streamId: string,
): Promise<LockedClusterAndStream | null> {
  // The locks are taken in the order of the FOR clauses: the cluster first, as everywhere.
  const [row] = await tx.$queryRawUnsafe<LockedClusterAndStream[]>(
    `SELECT c.generation AS "clusterGeneration", s.generation AS "streamGeneration",
       s.deleting AS "streamDeleting"
     FROM cluster c, stream s WHERE c.id = $1::uuid AND s.id = $2::uuid
     ${CLAUSE.share} OF c ${CLAUSE.write} OF s`,
    clusterId,
    streamId,
  );
  return row ?? null;
}
