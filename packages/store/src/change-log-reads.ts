import type { ChangeVisibility } from "@stream-registry/core";
import type { DbClient } from "./db.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { visibleSql } from "./visibility.ts";
import { openClient } from "./open-db.ts";

/** One entry of the change log as readers see it: numbered, in commit order. */
export interface Change {
  /** Position in the log: dense, and increasing in commit order. */
  seq: bigint;
  entityType: string;
  entityKey: string;
  action: string;
  generation: number;
  actor: string;
  at: Date;
  data: unknown;
  /**
   * Of a namespace below this registry's, which its discovery index followed: the path below
   * ("us-reg1-xyz/dc1"); null for the registry's own entries.
   */
  namespaceBelow: string | null;
}

/** Taken only by readers numbering the log; writers never wait on it. Prisma Migrate's is 72707369. */
const NUMBERING_LOCK = 72707371;

/** What the caller may read of the log (core's Access.changes()): all, by default. */
const ALL: ChangeVisibility = { entries: "all", grants: "all" };

/**
 * Numbered entries after `after`, oldest first, at most `limit`, of those `visible` shows. Every
 * entry committed before the call is numbered first, so a client reads its own writes.
 */
export async function listChanges(
  prisma: DbClient,
  after: bigint | undefined,
  limit: number,
  visible: ChangeVisibility = ALL,
): Promise<Change[]> {
  await numberChanges(prisma);
  if (!seesAll(visible)) {
    const from = after === undefined ? Prisma.sql`seq IS NOT NULL` : Prisma.sql`seq > ${after}`;
    const rows = await openClient(prisma).$queryRaw<(Omit<Change, "seq"> & { seq: bigint })[]>`
      SELECT seq, entity_type AS "entityType", entity_key AS "entityKey", action, generation, actor, at,
        data, namespace_below AS "namespaceBelow"
      FROM change WHERE ${from} AND ${visibleChangeSql(visible)}
      ORDER BY seq LIMIT ${limit}`;
    return rows;
  }
  const rows = await openClient(prisma).change.findMany({
    where: { seq: after === undefined ? { not: null } : { gt: after } },
    orderBy: { seq: "asc" },
    take: limit,
    select: CHANGE_COLUMNS,
  });
  return rows.map((row) => ({ ...row, seq: row.seq! }));
}

/**
 * How many entries are numbered (what `listChanges` can return) of those `visible` shows. All of
 * them: the highest number, since numbers are dense from 1, read from the index on `seq` instead
 * of counting the log.
 */
export async function countChanges(prisma: DbClient, visible: ChangeVisibility = ALL): Promise<number> {
  if (!seesAll(visible)) {
    const [row] = await openClient(prisma).$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM change WHERE seq IS NOT NULL AND ${visibleChangeSql(visible)}`;
    return row!.count;
  }
  // Raw: Prisma's aggregate wraps the table in a subquery (OFFSET), which reads every row; max()
  // straight on the column is one step down its unique index.
  const [row] = await openClient(prisma).$queryRaw<
    { seq: bigint | null }[]
  >`SELECT max(seq) AS seq FROM change`;
  return Number(row?.seq ?? 0n);
}

function seesAll(visible: ChangeVisibility): boolean {
  return visible.entries === "all" && visible.grants === "all";
}

/** An entry is of its namespace (this registry's own: ""); a grant's is shown to who administers it. */
function visibleChangeSql(visible: ChangeVisibility): Prisma.Sql {
  const namespace = Prisma.sql`coalesce(namespace_below, '')`;
  return Prisma.sql`CASE WHEN entity_type = 'grant' THEN ${visibleSql(visible.grants, namespace)}
    ELSE ${visibleSql(visible.entries, namespace)} END`;
}

/**
 * The id of the last entry committed (numbered or not): a reader waiting for the log to grow
 * compares it, which is cheaper than numbering.
 */
export async function latestChangeId(prisma: DbClient): Promise<bigint> {
  // Raw, as in countChanges: one step down the primary key rather than a scan of the log.
  const [row] = await openClient(prisma).$queryRaw<{ id: bigint | null }[]>`SELECT max(id) AS id FROM change`;
  return row?.id ?? 0n;
}

/**
 * Numbers every committed entry that has no number yet, after the highest number given, in the
 * order of their ids. Writers insert entries unnumbered, in parallel; an entry is seen here only
 * once its transaction committed, and numbers are only ever given above those given before, so a
 * reader paging by number never skips an entry that committed late nor sees one twice. Order is
 * commit order where it matters: a writer that waited for another's row lock, or read what
 * another committed, wrote its entries after that one committed, so they are seen in a later pass
 * or in the same pass with higher ids. The lock makes passes take turns; it is taken in a
 * statement of its own so that the numbering statement sees the numbers the previous pass gave.
 */
export async function numberChanges(prisma: DbClient): Promise<number> {
  return openClient(prisma).$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${NUMBERING_LOCK})`;
    return tx.$executeRaw`
      WITH ready AS (
        SELECT id, row_number() OVER (ORDER BY id) AS n FROM change WHERE seq IS NULL
      )
      UPDATE change c SET seq = (SELECT coalesce(max(seq), 0) FROM change) + ready.n
      FROM ready WHERE c.id = ready.id`;
  });
}

const CHANGE_COLUMNS = {
  seq: true,
  entityType: true,
  entityKey: true,
  action: true,
  generation: true,
  actor: true,
  at: true,
  data: true,
  namespaceBelow: true,
} as const;
