import { ENTITY_KINDS, type EntityKind, type Visibility } from "@stream-registry/core";
import type { Db } from "./db.ts";
import type { IndexedEntry, IndexedKind, IndexKey } from "./discovery-index.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { visibleSql } from "./visibility.ts";
import { open } from "./open-db.ts";

/**
 * Reads of the aggregated discovery index (discovery-index.ts keeps what is written to it): pages,
 * counts and look-ups by key, filtered in SQL by what the principal may read.
 */

/** What a list of the index keeps: the API's filters, on the rows' names and documents. */
export interface IndexFilter {
  /** A namespace below this registry's: its rows and those below it. */
  namespace?: string;
  nameStartsWith?: string | null;
  nameContains?: string | null;
  provider?: string | null;
  /** Entries of the config maps (`config`) the document must hold. */
  config?: { map: string; key: string; value: string | number | boolean }[] | null;
  stream?: string | null;
  cluster?: string | null;
  phase?: string | null;
  /** A source's or sink's type and STATUS, as its document holds them. */
  type?: string | null;
  state?: string | null;
}

/** Where a page of the index goes on from: the last row's sort key. */
export type IndexPosition = [
  namespace: string,
  name: string,
  createdAt: string,
  notDefault: boolean,
  cluster: string,
];

/**
 * A page of the index's rows of `kind`, by namespace, then name (bindings: by stream, then
 * creation, the default first), after `after`, of those `visible` shows (a stream prefix narrows
 * streams and bindings by their stream's name).
 */
export async function listIndexed(
  db: Db,
  kind: IndexedKind,
  filter: IndexFilter,
  page: { after?: IndexPosition; limit: number },
  visible: Visibility = "all",
): Promise<IndexedEntry[]> {
  const after = page.after
    ? Prisma.sql`AND (e.namespace, e.name, e.created_at, NOT e.is_default, e.cluster) >
        (${page.after[0]}, ${page.after[1]}, ${page.after[2]}::timestamptz, ${page.after[3]}, ${page.after[4]})`
    : Prisma.empty;
  return open(db).$queryRaw<IndexedEntry[]>`
    SELECT ${ENTRY_COLUMNS} FROM index_entry e
    WHERE ${filterSql(kind, filter, visible)} ${after}
    ORDER BY e.namespace, e.name, e.created_at, NOT e.is_default, e.cluster
    LIMIT ${page.limit}`;
}

/** How many rows of `kind` a list with `filter` has, of those `visible` shows. */
export async function countIndexed(
  db: Db,
  kind: IndexedKind,
  filter: IndexFilter,
  visible: Visibility = "all",
): Promise<number> {
  const [row] = countsSuffice(kind, filter, visible)
    ? await open(db).$queryRaw<{ count: number }[]>`
        SELECT coalesce(sum(e.count), 0)::int AS count FROM index_count e WHERE ${filterSql(kind, filter, visible, true)}`
    : await open(db).$queryRaw<{ count: number }[]>`
        SELECT count(*)::int AS count FROM index_entry e WHERE ${filterSql(kind, filter, visible)}`;
  return row!.count;
}

/**
 * Whether the namespaces' counts answer a count: when it filters on the namespace alone, and
 * what the principal sees is whole namespaces (no stream prefix narrows it).
 */
function countsSuffice(kind: IndexedKind, filter: IndexFilter, visible: Visibility): boolean {
  const namespaceOnly = Object.entries(filter).every(
    ([key, value]) =>
      key === "namespace" ||
      value === undefined ||
      value === null ||
      value === "" ||
      (Array.isArray(value) && value.length === 0),
  );
  const wholeNamespaces =
    visible === "all" || !namedByStream(kind) || visible.every((v) => v.prefix === null);
  return namespaceOnly && wholeNamespaces;
}

/** The rows with these keys (those the index has). */
export async function findIndexed(db: Db, keys: readonly IndexKey[]): Promise<IndexedEntry[]> {
  if (keys.length === 0) return [];
  return open(db).$queryRaw<IndexedEntry[]>`
    SELECT ${ENTRY_COLUMNS} FROM index_entry e
    JOIN jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) AS r(kind text, namespace text, name text, cluster text)
      ON e.kind = r.kind AND e.namespace = r.namespace AND e.name = r.name AND e.cluster = r.cluster`;
}

/**
 * The bindings of indexed streams or clusters (each named by namespace and name), in a stream's
 * order: oldest first, the default first of those made in the same millisecond.
 */
export async function findIndexedBindingsOf(
  db: Db,
  of: "stream" | "cluster",
  owners: readonly { namespace: string; name: string }[],
): Promise<IndexedEntry[]> {
  if (owners.length === 0) return [];
  const column = of === "stream" ? Prisma.sql`e.name` : Prisma.sql`e.cluster`;
  return open(db).$queryRaw<IndexedEntry[]>`
    SELECT ${ENTRY_COLUMNS} FROM index_entry e
    JOIN jsonb_to_recordset(${JSON.stringify(owners)}::jsonb) AS r(namespace text, name text)
      ON e.namespace = r.namespace AND ${column} = r.name
    WHERE e.kind = 'binding'
    ORDER BY e.created_at, NOT e.is_default, e.cluster`;
}

/** Whether a stream prefix narrows the rows of `kind` by their names (ENTITY_KINDS). */
function namedByStream(kind: IndexedKind): boolean {
  return ENTITY_KINDS.some((row: EntityKind) => row.kind === kind && row.namedByStream);
}

const ENTRY_COLUMNS = Prisma.sql`e.kind, e.namespace, e.name, e.cluster, e.created_at AS "createdAt",
  e.is_default AS "isDefault", e.doc`;

function filterSql(
  kind: IndexedKind,
  filter: IndexFilter,
  visible: Visibility,
  /** Of index_count's rows, which have no names (countsSuffice: no prefix to match one). */
  counted = false,
): Prisma.Sql {
  const where: Prisma.Sql[] = [Prisma.sql`e.kind = ${kind}`];
  if (visible !== "all")
    where.push(
      visibleSql(
        visible,
        Prisma.sql`e.namespace`,
        !namedByStream(kind) || counted ? undefined : Prisma.sql`e.name`,
      ),
    );
  if (filter.namespace !== undefined)
    where.push(
      Prisma.sql`(e.namespace = ${filter.namespace} OR starts_with(e.namespace, ${`${filter.namespace}/`}))`,
    );
  if (filter.nameStartsWith) where.push(Prisma.sql`starts_with(e.name, ${filter.nameStartsWith})`);
  if (filter.nameContains) where.push(Prisma.sql`strpos(e.name, ${filter.nameContains}) > 0`);
  if (filter.provider) where.push(Prisma.sql`e.doc->>'provider' = ${filter.provider}`);
  for (const entry of filter.config ?? []) {
    const wanted = { [entry.map]: { [entry.key]: entry.value } };
    where.push(Prisma.sql`e.doc->'config' @> ${JSON.stringify(wanted)}::jsonb`);
  }
  if (filter.stream) where.push(Prisma.sql`e.name = ${filter.stream}`);
  if (filter.cluster) where.push(Prisma.sql`e.cluster = ${filter.cluster}`);
  if (filter.phase) where.push(Prisma.sql`e.doc->'status'->>'phase' = ${filter.phase}`);
  if (filter.type) where.push(Prisma.sql`e.doc->>'type' = ${filter.type}`);
  if (filter.state) where.push(Prisma.sql`e.doc->>'state' = ${filter.state}`);
  return Prisma.join(where, " AND ");
}
