import {
  Phase,
  type Cluster,
  type ConnectorRole,
  type ConnectorStatus,
  type Visibility,
} from "@stream-registry/core";
import type { Keyset } from "./catalog.ts";
import { JOINED_CLUSTER_COLUMNS, toJoinedCluster, type JoinedClusterRow } from "./cluster-row.ts";
import {
  CONNECTOR_RESOURCES,
  CONNECTOR_SQL_COLUMNS,
  toConnector,
  type ConnectorRow,
  type ConnectorWithJournal,
} from "./connector-table.ts";
import type { Db } from "./db.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { findResourcesToObserve } from "./resource-status.ts";
import { visibleSql } from "./visibility.ts";
import { open } from "./open-db.ts";

/** Reads of stream sources and sinks, one code path for both (their role's table). */

/** A source or sink with its cluster. */
export type ConnectorOnCluster = ConnectorWithJournal & { cluster: Cluster };

/** What a list of sources or sinks keeps. */
export interface ConnectorFilter {
  nameStartsWith?: string | null;
  nameContains?: string | null;
  /** The cluster's name. */
  cluster?: string | null;
  type?: string | null;
  /** Its STATUS (core's connectorStatus, here in SQL). */
  state?: ConnectorStatus | null;
}

type JoinedRow = ConnectorRow & JoinedClusterRow;

/** The role's rows (k) with their clusters (c) and observations (o). */
function from(role: ConnectorRole): Prisma.Sql {
  const { table, observations, observationKey } = CONNECTOR_RESOURCES[role];
  return Prisma.sql`${table} k JOIN cluster c ON c.id = k.cluster_id
    LEFT JOIN ${observations} o ON o.${observationKey} = k.id`;
}

function select(role: ConnectorRole): Prisma.Sql {
  return Prisma.sql`SELECT ${CONNECTOR_SQL_COLUMNS}, ${JOINED_CLUSTER_COLUMNS} FROM ${from(role)}`;
}

const toJoined =
  (role: ConnectorRole) =>
  (row: JoinedRow): ConnectorOnCluster => ({ ...toConnector(role, row), cluster: toJoinedCluster(row) });

/** The source or sink named `name`, with its cluster. */
export async function findConnector(
  db: Db,
  role: ConnectorRole,
  name: string,
): Promise<ConnectorOnCluster | null> {
  const [row] = await open(db).$queryRaw<JoinedRow[]>`${select(role)} WHERE k.name = ${name}`;
  return row ? toJoined(role)(row) : null;
}

/** The sources or sinks named in `names` (those that exist), with their clusters: one query. */
export async function findConnectorsByNames(
  db: Db,
  role: ConnectorRole,
  names: readonly string[],
): Promise<ConnectorOnCluster[]> {
  const rows = await open(db).$queryRaw<
    JoinedRow[]
  >`${select(role)} WHERE k.name = ANY(${[...names]}::text[])`;
  return rows.map(toJoined(role));
}

/** The source or sink with id `id`, with its cluster: what the reconciler reads per job. */
export async function findConnectorById(
  db: Db,
  role: ConnectorRole,
  id: string,
): Promise<ConnectorOnCluster | null> {
  const [row] = await open(db).$queryRaw<JoinedRow[]>`${select(role)} WHERE k.id = ${id}::uuid`;
  return row ? toJoined(role)(row) : null;
}

/** Sources or sinks the resync observes: ONLINE, not observed since `before`, in id order. */
export async function findConnectorsToObserve(
  db: Db,
  role: ConnectorRole,
  query: { before: Date; after: string | undefined; limit: number },
): Promise<ConnectorOnCluster[]> {
  const ids = await findResourcesToObserve(db, CONNECTOR_RESOURCES[role], query);
  if (ids.length === 0) return [];
  const rows = await open(db).$queryRaw<JoinedRow[]>`${select(role)}
    WHERE k.id = ANY(${ids}::uuid[]) ORDER BY k.id`;
  return rows.map(toJoined(role));
}

/** core's connectorStatus in SQL, over the row (k) and its observation (o). */
const STATUS_SQL = Prisma.sql`(CASE
  WHEN k.phase <> ${Phase.ONLINE}::"Phase" THEN k.phase::text
  WHEN o.details->>'state' = 'RUNNING' THEN 'ONLINE'
  WHEN o.details->>'state' IS NULL OR o.details->>'state' IN ('UNASSIGNED', 'RESTARTING') THEN 'PENDING'
  ELSE o.details->>'state' END)`;

function where(filter: ConnectorFilter, visible: Visibility): Prisma.Sql {
  const conditions = [visibleSql(visible, Prisma.sql`''`, Prisma.sql`k.name`)];
  if (filter.nameStartsWith) conditions.push(Prisma.sql`starts_with(k.name, ${filter.nameStartsWith})`);
  if (filter.nameContains) conditions.push(Prisma.sql`strpos(k.name, ${filter.nameContains}) > 0`);
  if (filter.cluster) conditions.push(Prisma.sql`c.name = ${filter.cluster}`);
  if (filter.type) conditions.push(Prisma.sql`k.type = ${filter.type}`);
  if (filter.state) conditions.push(Prisma.sql`${STATUS_SQL} = ${filter.state}`);
  return Prisma.join(conditions, " AND ");
}

/** A page of sources or sinks by name, after `page.after`, of those `visible` shows (by stream prefix). */
export async function listConnectors(
  db: Db,
  role: ConnectorRole,
  filter: ConnectorFilter,
  page: Keyset<string>,
  visible: Visibility = "all",
): Promise<ConnectorOnCluster[]> {
  const after = page.after === undefined ? Prisma.empty : Prisma.sql`AND k.name > ${page.after}`;
  const rows = await open(db).$queryRaw<JoinedRow[]>`${select(role)}
    WHERE ${where(filter, visible)} ${after} ORDER BY k.name LIMIT ${page.limit}`;
  return rows.map(toJoined(role));
}

export async function countConnectors(
  db: Db,
  role: ConnectorRole,
  filter: ConnectorFilter,
  visible: Visibility = "all",
): Promise<number> {
  const [row] = await open(db).$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM ${from(role)} WHERE ${where(filter, visible)}`;
  return row!.count;
}

/** What the provider last saw of sources or sinks, by id (those observed). */
export async function findConnectorObservations(
  db: Db,
  role: ConnectorRole,
  ids: readonly string[],
): Promise<Map<string, { message: string | null; details: unknown; observedAt: Date }>> {
  const { observations, observationKey } = CONNECTOR_RESOURCES[role];
  const rows = await open(db).$queryRaw<
    { id: string; message: string | null; details: unknown; observedAt: Date }[]
  >`SELECT ${observationKey}::text AS id, message, details, observed_at AS "observedAt"
    FROM ${observations} WHERE ${observationKey} = ANY(${[...ids]}::uuid[])`;
  return new Map(rows.map(({ id, ...observation }) => [id, observation]));
}

/**
 * Whether the stream `name` has a live (not DELETING) binding on the cluster `clusterId`: the
 * seed's rule for a source or sink of that name there.
 */
export async function hasLiveBinding(db: Db, name: string, clusterId: string): Promise<boolean> {
  const [row] = await open(db).$queryRaw<{ found: boolean }[]>`
    SELECT EXISTS (SELECT FROM binding b JOIN stream s ON s.id = b.stream_id
      WHERE s.name = ${name} AND b.cluster_id = ${clusterId}::uuid AND b.phase <> ${Phase.DELETING}::"Phase") AS found`;
  return row!.found;
}

/**
 * The live (not DELETING) sources and sinks of the stream `name`, on the cluster `clusterId` if
 * given: what a binding's (or a stream's) delete would leave without their binding.
 */
export async function findConnectorsOfStream(
  db: Db,
  name: string,
  clusterId?: string,
): Promise<{ role: ConnectorRole; cluster: string }[]> {
  const found = await Promise.all(
    (["source", "sink"] as const).map(async (role) => {
      const rows = await open(db).$queryRaw<{ cluster: string }[]>`
        SELECT c.name AS cluster FROM ${CONNECTOR_RESOURCES[role].table} k JOIN cluster c ON c.id = k.cluster_id
        WHERE k.name = ${name} AND k.phase <> ${Phase.DELETING}::"Phase"
          AND (${clusterId ?? null}::uuid IS NULL OR k.cluster_id = ${clusterId ?? null}::uuid)`;
      return rows.map((row) => ({ role, cluster: row.cluster }));
    }),
  );
  return found.flat();
}
