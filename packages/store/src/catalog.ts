import type { Binding, Cluster, ConfigValue, Phase, Stream, Visibility } from "@stream-registry/core";
import { BINDING_COLUMNS, toBinding } from "./binding-row.ts";
import { toCluster } from "./cluster-row.ts";
import type { Db } from "./db.ts";
import type { Prisma } from "./generated/prisma/client.ts";
import { toStream } from "./stream-row.ts";
import { ownVisibility, visibleStreamNames } from "./visibility.ts";
import { open } from "./open-db.ts";

/**
 * The catalog's lists: filtered, in a stable order, one keyset page at a time (`after` is the
 * last row of the previous page, `limit` how many rows to read). Which filters are allowed is the
 * caller's rule (secrets are not filterable); here they only become queries. `visible` is what the
 * principal may see (visibility.ts): lists and counts leave the rest out in SQL.
 */

export interface ConfigEntryFilter {
  map: string;
  key: string;
  value: ConfigValue;
}

export interface NameFilter {
  nameStartsWith?: string | null;
  nameContains?: string | null;
  config?: ConfigEntryFilter[] | null;
}

export interface ClusterFilter extends NameFilter {
  provider?: string | null;
}

export interface BindingFilter {
  stream?: string | null;
  cluster?: string | null;
  phase?: Phase | null;
}

/** Where a page of bindings starts: after this binding in (stream name, creation, id) order. */
export interface BindingPosition {
  stream: string;
  createdAt: Date;
  id: string;
}

export interface Keyset<P> {
  after?: P | undefined;
  limit: number;
}

/** Streams by name. */
export async function listStreams(
  db: Db,
  filter: NameFilter,
  page: Keyset<string>,
  visible: Visibility = "all",
): Promise<Stream[]> {
  return (await open(db).stream.findMany(byName(streamWhere(filter, visible), page))).map(toStream);
}

export function countStreams(db: Db, filter: NameFilter, visible: Visibility = "all"): Promise<number> {
  return open(db).stream.count({ where: streamWhere(filter, visible) });
}

/** Clusters by name. `visible` is the principal's visibility of clusters (no stream prefix counts). */
export async function listClusters(
  db: Db,
  filter: ClusterFilter,
  page: Keyset<string>,
  visible: Visibility = "all",
): Promise<Cluster[]> {
  return (await open(db).cluster.findMany(byName(clusterWhere(filter, visible), page))).map(toCluster);
}

export function countClusters(db: Db, filter: ClusterFilter, visible: Visibility = "all"): Promise<number> {
  return open(db).cluster.count({ where: clusterWhere(filter, visible) });
}

/** Bindings by stream name, then creation (a stream's default first), with their streams. */
export async function listBindings(
  db: Db,
  filter: BindingFilter,
  page: Keyset<BindingPosition>,
  visible: Visibility = "all",
): Promise<(Binding & { stream: Stream })[]> {
  const after = page.after;
  const rows = await open(db).binding.findMany({
    where: {
      AND: [
        bindingWhere(filter, visible),
        after === undefined
          ? {}
          : {
              OR: [
                { stream: { name: { gt: after.stream } } },
                { stream: { name: after.stream }, createdAt: { gt: after.createdAt } },
                { stream: { name: after.stream }, createdAt: after.createdAt, id: { gt: after.id } },
              ],
            },
      ],
    },
    orderBy: [{ stream: { name: "asc" } }, { createdAt: "asc" }, { id: "asc" }],
    select: { ...BINDING_COLUMNS, stream: true },
    take: page.limit,
  });
  return rows.map(({ stream, ...row }) => ({ ...toBinding(row), stream: toStream(stream) }));
}

export function countBindings(db: Db, filter: BindingFilter, visible: Visibility = "all"): Promise<number> {
  return open(db).binding.count({ where: bindingWhere(filter, visible) });
}

/** A page of a list in name order. */
function byName<Where>(where: Where, page: Keyset<string>) {
  const after = page.after === undefined ? {} : { name: { gt: page.after } };
  return { where: { AND: [where, after] }, orderBy: { name: "asc" as const }, take: page.limit };
}

function streamWhere(filter: NameFilter, visible: Visibility): Prisma.StreamWhereInput {
  return { AND: [nameWhere(filter), ...configWhere(filter.config), visibleStreamNames(visible) ?? {}] };
}

function clusterWhere(filter: ClusterFilter, visible: Visibility): Prisma.ClusterWhereInput {
  return {
    AND: [
      nameWhere(filter),
      ...configWhere(filter.config),
      filter.provider ? { provider: filter.provider } : {},
      ownVisibility(visible) === "all" ? {} : { id: { in: [] } },
    ],
  };
}

function bindingWhere(filter: BindingFilter, visible: Visibility): Prisma.BindingWhereInput {
  const streams = visibleStreamNames(visible);
  return {
    AND: [
      filter.stream ? { stream: { name: filter.stream } } : {},
      filter.cluster ? { cluster: { name: filter.cluster } } : {},
      filter.phase ? { phase: filter.phase } : {},
      streams ? { stream: streams } : {},
    ],
  };
}

function nameWhere(filter: NameFilter): { name?: Prisma.StringFilter } {
  if (!filter.nameStartsWith && !filter.nameContains) return {};
  return {
    name: {
      ...(filter.nameStartsWith ? { startsWith: escapeLike(filter.nameStartsWith) } : {}),
      ...(filter.nameContains ? { contains: escapeLike(filter.nameContains) } : {}),
    },
  };
}

/** Prisma passes these to LIKE unescaped, and "_" is common in stream names. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

function configWhere(
  entries: readonly ConfigEntryFilter[] | null | undefined,
): { config: Prisma.JsonFilter }[] {
  return (entries ?? []).map((entry) => ({ config: { path: [entry.map, entry.key], equals: entry.value } }));
}
