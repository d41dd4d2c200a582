import type { QueryResolvers } from "../../generated/resolvers-types.ts";
import { toConnection } from "../connection.ts";
import { primeClusters, primeStreams } from "../loaders.ts";

export const Query: QueryResolvers = {
  namespace: (_, __, { namespace }) => ({ path: namespace }),
  cluster: async (_, { name }, { loaders }) => (await loaders.clusterByName.load(name)) ?? null,
  clusters: async (_, { filter, first, after }, { services, loaders }) => {
    const page = await services.catalog.clusters(filter, { first, after });
    primeClusters(
      loaders,
      page.items.map((i) => i.node),
    );
    return toConnection(page);
  },
  stream: async (_, { name }, { loaders }) => (await loaders.streamByName.load(name)) ?? null,
  streams: async (_, { filter, first, after }, { services, loaders }) => {
    const page = await services.catalog.streams(filter, { first, after });
    primeStreams(
      loaders,
      page.items.map((i) => i.node),
    );
    return toConnection(page);
  },
  binding: async (_, { stream, cluster }, { loaders }) => {
    const [s, c] = await Promise.all([
      loaders.streamByName.load(stream),
      loaders.clusterByName.load(cluster),
    ]);
    if (!s || !c) return null;
    return (await loaders.bindingsByStreamId.load(s.id)).find((b) => b.clusterId === c.id) ?? null;
  },
  bindings: async (_, { filter, first, after }, { services, loaders }) => {
    const page = await services.catalog.bindings(filter, { first, after });
    primeStreams(
      loaders,
      page.items.map((i) => i.node.stream),
    );
    return toConnection(page);
  },
  changes: async (_, { first, after }, { services }) =>
    toConnection(await services.catalog.changes({ first, after })),
};
