import type { Binding } from "@stream-registry/core";
import type { ClusterFilter, NameFilter, PageArgs } from "../../services/catalog.ts";
import type { GraphQLContext } from "../context.ts";
import { toConnection } from "../connection.ts";
import { primeClusters, primeStreams } from "../loaders.ts";

/** Shared by Query and Namespace: a page of clusters, primed into the request's loaders. */
export async function clusterConnection(
  filter: ClusterFilter | null | undefined,
  args: PageArgs,
  context: GraphQLContext,
) {
  const page = await context.services.catalog.clusters(filter, args);
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
  const page = await context.services.catalog.streams(filter, args);
  primeStreams(
    context.loaders,
    page.items.map((i) => i.node),
  );
  return toConnection(page);
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
