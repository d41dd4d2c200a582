import type { Binding, Cluster, Stream } from "@stream-registry/core";
import { BINDING_COLUMNS, toBinding } from "./binding-row.ts";
import { toCluster } from "./clusters.ts";
import type { Db } from "./db.ts";
import { toStream } from "./streams.ts";

/** A binding named by its stream and its cluster, with both. */
export async function findBindingByNames(
  db: Db,
  stream: string,
  cluster: string,
): Promise<{ binding: Binding; stream: Stream; cluster: Cluster } | null> {
  const row = await db.binding.findFirst({
    where: { stream: { name: stream }, cluster: { name: cluster } },
    select: { ...BINDING_COLUMNS, stream: true, cluster: true },
  });
  if (!row) return null;
  const { stream: streamRow, cluster: clusterRow, ...binding } = row;
  return { binding: toBinding(binding), stream: toStream(streamRow), cluster: toCluster(clusterRow) };
}

/** For per-request loaders: the bindings of many streams or clusters, oldest (the default) first. */
export async function findBindingsOf(
  db: Db,
  of: { streamIds: readonly string[] } | { clusterIds: readonly string[] },
): Promise<Binding[]> {
  const where =
    "streamIds" in of ? { streamId: { in: [...of.streamIds] } } : { clusterId: { in: [...of.clusterIds] } };
  const rows = await db.binding.findMany({
    where,
    select: BINDING_COLUMNS,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toBinding);
}
