import type { QueryResolvers } from "../../generated/resolvers-types.ts";
import { toConnection } from "../connection.ts";
import { routed } from "../routed.ts";
import { hierarchyQueries } from "./hierarchy.ts";
import { primeStreams } from "../loaders.ts";
import { bindingByNames, clusterConnection, streamConnection } from "./lookups.ts";

export const Query: QueryResolvers = {
  namespace: (_, __, { namespace }) => ({ path: namespace }),
  ...hierarchyQueries,
  cluster: routed(async (_, { name }, { loaders }) => (await loaders.clusterByName.load(name)) ?? null),
  clusters: (_, { filter, first, after }, context) => clusterConnection(filter, { first, after }, context),
  stream: routed(async (_, { name }, { loaders }) => (await loaders.streamByName.load(name)) ?? null),
  streams: (_, { filter, first, after }, context) => streamConnection(filter, { first, after }, context),
  binding: routed((_, { stream, cluster }, context) => bindingByNames(stream, cluster, context)),
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
