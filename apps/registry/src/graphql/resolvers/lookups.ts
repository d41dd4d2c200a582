import type { Binding, Cluster, Stream } from "@stream-registry/core";
import type { ClusterFilter, NameFilter } from "../../services/catalog.ts";
import type { PageArgs } from "../../services/page.ts";
import { accessOf } from "../authorize.ts";
import type { GraphQLContext } from "../context.ts";
import { toConnection } from "../connection.ts";
import { primeClusters, primeStreams } from "../loaders.ts";

/** Shared by Query and Namespace: a page of clusters, primed into the request's loaders. */
export async function clusterConnection(
  filter: ClusterFilter | null | undefined,
  args: PageArgs,
  context: GraphQLContext,
) {
  const page = await context.services.catalog.clusters(filter, args, await accessOf(context));
  primeClusters(
    context.loaders,
    page.items.map((i) => i.node),
  );
  return toConnection(page);
}

/** Shared by Query and Namespace: a page of streams, primed into the request's loaders. */
export async function streamConnection(
  filter: NameFilter | null | undefined,
  args: PageArgs,
  context: GraphQLContext,
) {
  const page = await context.services.catalog.streams(filter, args, await accessOf(context));
  primeStreams(
    context.loaders,
    page.items.map((i) => i.node),
  );
  return toConnection(page);
}

/** This registry's cluster `name`, or null when there is none or the principal may not read it. */
export async function readableCluster(name: string, context: GraphQLContext): Promise<Cluster | null> {
  if (!(await accessOf(context)).can("reader", "")) return null;
  return (await context.loaders.clusterByName.load(name)) ?? null;
}

/** This registry's stream `name`, or null when there is none or the principal may not read it. */
export async function readableStream(name: string, context: GraphQLContext): Promise<Stream | null> {
  if (!(await accessOf(context)).can("reader", "", name)) return null;
  return (await context.loaders.streamByName.load(name)) ?? null;
}

/** The bindings of those whose streams the principal reads (one batched look-up of their streams). */
export async function readableBindings(context: GraphQLContext, bindings: Binding[]): Promise<Binding[]> {
  const access = await accessOf(context);
  if (bindings.length === 0 || access.can("reader", "")) return bindings;
  const streams = await context.loaders.streamById.loadMany(bindings.map((b) => b.streamId));
  return bindings.filter((_, i) => {
    const stream = streams[i];
    return stream && !(stream instanceof Error) && access.readsDocument("", stream.name);
  });
}

/** The binding of `stream` on `cluster` in this registry, or null. */
export async function bindingByNames(
  stream: string,
  cluster: string,
  { loaders }: GraphQLContext,
): Promise<Binding | null> {
  const [s, c] = await Promise.all([loaders.streamByName.load(stream), loaders.clusterByName.load(cluster)]);
  if (!s || !c) return null;
  return (await loaders.bindingsByStreamId.load(s.id)).find((b) => b.clusterId === c.id) ?? null;
}
