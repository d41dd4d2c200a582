import type { Binding, Cluster, ConfigValue, Phase, Stream } from "@stream-registry/core";
import { BINDING_COLUMNS, toBinding } from "./binding-row.ts";
import { toCluster } from "./clusters.ts";
import type { Db } from "./db.ts";
import type { Prisma } from "./generated/prisma/client.ts";
import { toStream } from "./streams.ts";

/**
 * The catalog's lists: filtered, in a stable order, one keyset page at a time (`after` is the
 * last row of the previous page, `limit` how many rows to read). Which filters are allowed is the
 * caller's rule (secrets are not filterable); here they only become queries.
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
export async function listStreams(db: Db, filter: NameFilter, page: Keyset<string>): Promise<Stream[]> {
  return (await db.stream.findMany(byName(streamWhere(filter), page))).map(toStream);
}

export function countStreams(db: Db, filter: NameFilter): Promise<number> {
  return db.stream.count({ where: streamWhere(filter) });
}

/** Clusters by name. */
export async function listClusters(db: Db, filter: ClusterFilter, page: Keyset<string>): Promise<Cluster[]> {
  return (await db.cluster.findMany(byName(clusterWhere(filter), page))).map(toCluster);
}

export function countClusters(db: Db, filter: ClusterFilter): Promise<number> {
  return db.cluster.count({ where: clusterWhere(filter) });
}

/** Bindings by stream name, then creation (a stream's default first), with their streams. */
export async function listBindings(
  db: Db,
  filter: BindingFilter,
  page: Keyset<BindingPosition>,
): Promise<(Binding & { stream: Stream })[]> {
  const after = page.after;
  const rows = await db.binding.findMany({
    where: {
      AND: [
        bindingWhere(filter),
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

export function countBindings(db: Db, filter: BindingFilter): Promise<number> {
  return db.binding.count({ where: bindingWhere(filter) });
}

/** A page of a list in name order. */
function byName<Where>(where: Where, page: Keyset<string>) {
  const after = page.after === undefined ? {} : { name: { gt: page.after } };
  return { where: { AND: [where, after] }, orderBy: { name: "asc" as const }, take: page.limit };
}

function streamWhere(filter: NameFilter): Prisma.StreamWhereInput {
  return { AND: [nameWhere(filter), ...configWhere(filter.config)] };
}

function clusterWhere(filter: ClusterFilter): Prisma.ClusterWhereInput {
  return {
    AND: [
      nameWhere(filter),
      ...configWhere(filter.config),
      filter.provider ? { provider: filter.provider } : {},
    ],
  };
}

function bindingWhere(filter: BindingFilter): Prisma.BindingWhereInput {
  return {
    ...(filter.stream ? { stream: { name: filter.stream } } : {}),
    ...(filter.cluster ? { cluster: { name: filter.cluster } } : {}),
    ...(filter.phase ? { phase: filter.phase } : {}),
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
