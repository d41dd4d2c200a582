import type { EntityKindName } from "@stream-registry/core";
import type { Db, DbClient } from "./db.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { recordChange } from "./change-log.ts";
import type { Change } from "./change-log-reads.ts";
import type { Tx } from "./transaction.ts";
import { open, openClient, txHandle } from "./open-db.ts";

/**
 * The aggregated discovery index: the entities (core's ENTITY_KINDS: streams, clusters, bindings)
 * of every child's subtree, as their registries rendered them, derived from the children's change
 * feeds. Each child's position in its feed is written in the transaction that stores what was
 * derived from the page read, so every entry counts once, whatever fails in between.
 */

/** A row's kind: an entity type of core's ENTITY_KINDS ("stream"). */
export type IndexedKind = EntityKindName;

/** Which row: its kind, namespace below this registry's, name and (a binding's) cluster. */
export interface IndexKey {
  kind: IndexedKind;
  /** The namespace's path below this registry's, the child's name first: "us-reg1-xyz/dc1". */
  namespace: string;
  /** Its name; of a kind named by fqn (a binding), its stream's. */
  name: string;
  /** Of a kind named by fqn, its cluster; "" for others. */
  cluster: string;
}

/** An entity of a child's subtree, as the registry that owns it answered. */
export interface IndexedEntry extends IndexKey {
  createdAt: Date;
  isDefault: boolean;
  /** Its fields, by name (namespace and fqn left out: they follow from where the row is). */
  doc: Record<string, unknown>;
}

/** How far the index holds one child's feed. */
export interface IndexFollow {
  childId: string;
  /** The child's name here (the first segment of its rows' namespaces). */
  name: string;
  url: string;
  registryId: string;
  /** The registry id the feed answered as when it was last read; null before the first read. */
  feedRegistryId: string | null;
  /** The last entry indexed (0: none) and its fingerprint, which tells a feed that started over. */
  seq: bigint;
  fingerprint: string | null;
  /** The last entry the feed had when it was last read. */
  latestSeq: bigint;
  readAt: Date | null;
  /** When a read last found nothing more to index. */
  caughtUpAt: Date | null;
  lastError: string | null;
  resets: number;
  /** When the child first registered here. */
  registeredAt: Date;
  /** The lag of the child's own index behind its children, as it reported it at the last read. */
  descendantLag: DescendantLag[];
  /** The registries below the child, with their health, as it reported them at the last read. */
  descendantHealth: DescendantHealth[];
}

/** A registry below a child, by its path below here, as the registry above it last probed it. */
export interface DescendantHealth {
  below: string;
  url: string;
  status: string;
  checkedAt: string | null;
  latencyMs: number | null;
  lastError: string | null;
}

/** How far behind one of its own children a child's index was, by that child's path below here. */
export interface DescendantLag {
  below: string;
  entriesBehind: number;
  secondsBehind: number;
  syncedAt: string | null;
  lastError: string | null;
}

/** A change-log entry of a namespace below this registry's (`below`), as its child's feed gave it. */
export type RepublishedChange = Omit<Change, "seq" | "namespaceBelow"> & { below: string };

/** What a read of a child's feed found: how far the feed goes, and the lag of the child's index. */
export interface FeedRead {
  latestSeq: bigint;
  /** Whether the index holds all of it once the read is written. */
  caughtUp: boolean;
  descendantLag: DescendantLag[];
  descendantHealth: DescendantHealth[];
}

/** What one page of a child's feed makes of the index, written at once with the new position. */
export interface IndexPage {
  childId: string;
  /** The position the page was read from: nothing is written if the index moved meanwhile. */
  from: bigint;
  to: { seq: bigint; fingerprint: string; feedRegistryId: string } & FeedRead;
  /** Namespaces whose rows (and those of the namespaces below them) go, before the rest. */
  dropped: string[];
  put: IndexedEntry[];
  removed: IndexKey[];
  /** The page's entries as this registry's own feed shows them, for its parent. */
  republish: RepublishedChange[];
}

/** Makes sure every child has a position in its feed (0, for a child new here). */
export async function ensureIndexFollows(db: Db): Promise<void> {
  await open(db).$executeRaw`
    INSERT INTO index_follow (child_id) SELECT id FROM child_registry ON CONFLICT DO NOTHING`;
}

/** Every child's position, by name; or the one child's with `childId`. */
export async function listIndexFollows(db: Db, childId?: string): Promise<IndexFollow[]> {
  const which = childId === undefined ? Prisma.empty : Prisma.sql`WHERE f.child_id = ${childId}::uuid`;
  return open(db).$queryRaw<IndexFollow[]>`
    SELECT f.child_id::text AS "childId", c.name, c.url, c.registry_id::text AS "registryId",
      f.feed_registry_id::text AS "feedRegistryId", f.seq, f.fingerprint, f.latest_seq AS "latestSeq",
      f.read_at AS "readAt", f.caught_up_at AS "caughtUpAt", f.last_error AS "lastError", f.resets,
      c.created_at AS "registeredAt", f.descendant_lag AS "descendantLag",
      f.descendant_health AS "descendantHealth"
    FROM index_follow f JOIN child_registry c ON c.id = f.child_id
    ${which}
    ORDER BY c.name COLLATE "C"`;
}

/**
 * Writes a page's rows, its entries and the child's new position in one transaction; false,
 * writing nothing, if the position is no longer `from` (another instance of this registry wrote
 * the page, or the child's index was reset meanwhile).
 */
export async function applyIndexPage(prisma: DbClient, page: IndexPage): Promise<boolean> {
  return openClient(prisma)
    .$transaction(
      async (raw) => {
        const tx = txHandle(raw);
        const moved = await raw.$executeRaw`
        UPDATE index_follow SET seq = ${page.to.seq}, fingerprint = ${page.to.fingerprint},
          feed_registry_id = ${page.to.feedRegistryId}::uuid, latest_seq = ${page.to.latestSeq},
          descendant_lag = ${JSON.stringify(page.to.descendantLag)}::jsonb,
          descendant_health = ${JSON.stringify(page.to.descendantHealth)}::jsonb, read_at = now(), last_error = NULL,
          caught_up_at = CASE WHEN ${page.to.caughtUp} THEN now() ELSE caught_up_at END
        WHERE child_id = ${page.childId}::uuid AND seq = ${page.from}`;
        if (moved === 0) throw STALE;
        await dropSubtrees(tx, page.childId, page.dropped);
        await removeEntries(tx, page.removed);
        await putEntries(tx, page.childId, page.put);
        await recount(tx, page);
        await republish(tx, page.republish);
        return true;
      },
      { maxWait: 10_000, timeout: 60_000 },
    )
    .catch((error: unknown) => {
      if (error === STALE) return false;
      throw error;
    });
}

const STALE = Symbol("index position moved");

/** A read of the feed that indexed nothing: how far the feed went, or why it could not be read. */
export async function recordIndexRead(
  db: Db,
  childId: string,
  read: FeedRead | { error: string },
): Promise<void> {
  if ("error" in read) {
    await open(db).$executeRaw`
      UPDATE index_follow SET last_error = ${read.error}
      WHERE child_id = ${childId}::uuid AND last_error IS DISTINCT FROM ${read.error}`;
    return;
  }
  await open(db).$executeRaw`
    UPDATE index_follow SET latest_seq = ${read.latestSeq}, read_at = now(), last_error = NULL,
      descendant_lag = ${JSON.stringify(read.descendantLag)}::jsonb,
      descendant_health = ${JSON.stringify(read.descendantHealth)}::jsonb,
      caught_up_at = CASE WHEN ${read.caughtUp} THEN now() ELSE caught_up_at END
    WHERE child_id = ${childId}::uuid`;
}

/**
 * Forgets what the index holds of a child (its feed started over, or it took another name or
 * left), and says so in this registry's own feed, an "index"/"dropped" entry of the child's
 * namespace, so that the registry above forgets it too. Its feed is then read from the start.
 */
export async function resetChildIndex(
  tx: Tx,
  childId: string,
  childName: string,
  actor: string,
): Promise<void> {
  await open(tx).$executeRaw`DELETE FROM index_entry WHERE child_id = ${childId}::uuid`;
  await open(tx).$executeRaw`DELETE FROM index_count WHERE child_id = ${childId}::uuid`;
  await open(tx).$executeRaw`
    UPDATE index_follow SET seq = 0, fingerprint = NULL, feed_registry_id = NULL, latest_seq = 0,
      caught_up_at = NULL, descendant_lag = '[]', resets = resets + 1
    WHERE child_id = ${childId}::uuid`;
  await recordChange(tx, {
    entityType: "index",
    entityKey: childName,
    action: "dropped",
    generation: 1,
    actor,
    below: childName,
  });
}

async function dropSubtrees(tx: Tx, childId: string, namespaces: string[]): Promise<void> {
  if (namespaces.length === 0) return;
  await open(tx).$executeRaw`
    DELETE FROM index_entry WHERE child_id = ${childId}::uuid AND EXISTS (
      SELECT FROM unnest(${namespaces}::text[]) AS d(ns)
      WHERE namespace = d.ns OR starts_with(namespace, d.ns || '/'))`;
}

/**
 * Counts again, by kind, the rows of the namespaces a page wrote or removed rows in, and forgets
 * the counts of the subtrees it dropped: index_count then holds what a GROUP BY of index_entry
 * would, for unfiltered totals to sum.
 */
async function recount(tx: Tx, page: IndexPage): Promise<void> {
  if (page.dropped.length > 0)
    await open(tx).$executeRaw`
      DELETE FROM index_count WHERE child_id = ${page.childId}::uuid AND EXISTS (
        SELECT FROM unnest(${page.dropped}::text[]) AS d(ns)
        WHERE namespace = d.ns OR starts_with(namespace, d.ns || '/'))`;
  const touched = [...new Set([...page.put, ...page.removed].map((entry) => entry.namespace))];
  if (touched.length === 0) return;
  await open(tx).$executeRaw`DELETE FROM index_count WHERE namespace = ANY(${touched}::text[])`;
  await open(tx).$executeRaw`
    INSERT INTO index_count (child_id, kind, namespace, count)
    SELECT ${page.childId}::uuid, kind, namespace, count(*)::int FROM index_entry
    WHERE namespace = ANY(${touched}::text[]) GROUP BY kind, namespace`;
}

async function removeEntries(tx: Tx, keys: IndexKey[]): Promise<void> {
  if (keys.length === 0) return;
  await open(tx).$executeRaw`
    DELETE FROM index_entry e
    USING jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) AS r(kind text, namespace text, name text, cluster text)
    WHERE e.kind = r.kind AND e.namespace = r.namespace AND e.name = r.name AND e.cluster = r.cluster`;
}

async function putEntries(tx: Tx, childId: string, entries: IndexedEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await open(tx).$executeRaw`
    INSERT INTO index_entry (child_id, kind, namespace, name, cluster, created_at, is_default, doc)
    SELECT ${childId}::uuid, r.kind, r.namespace, r.name, r.cluster, r."createdAt", r."isDefault", r.doc
    FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb)
      AS r(kind text, namespace text, name text, cluster text, "createdAt" timestamptz, "isDefault" boolean, doc jsonb)
    ON CONFLICT (kind, namespace, name, cluster) DO UPDATE SET child_id = excluded.child_id,
      created_at = excluded.created_at, is_default = excluded.is_default, doc = excluded.doc`;
}

async function republish(tx: Tx, changes: RepublishedChange[]): Promise<void> {
  if (changes.length === 0) return;
  // In the page's order: the log is numbered by id.
  await open(tx).$executeRaw`
    INSERT INTO change (entity_type, entity_key, action, generation, actor, at, data, namespace_below)
    SELECT r."entityType", r."entityKey", r.action, r.generation, r.actor, r.at, r.data, r.below
    FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(changes)}::jsonb)
      AS ("entityType" text, "entityKey" text, action text, generation int, actor text, at timestamptz, data jsonb, below text))
      WITH ORDINALITY AS r("entityType", "entityKey", action, generation, actor, at, data, below, n)
    ORDER BY r.n`;
}
