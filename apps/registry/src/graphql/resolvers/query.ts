import type { QueryResolvers } from "../../generated/resolvers-types.ts";
import { toConnection } from "../connection.ts";
import { routed } from "../routed.ts";
import { subtreeConnection } from "../subtree.ts";
import { indexLag } from "../indexed-list.ts";
import { hierarchyQueries } from "./hierarchy.ts";
import { primeStreams } from "../loaders.ts";
import { bindingByNames, clusterConnection, streamConnection } from "./lookups.ts";

export const Query: QueryResolvers = {
  namespace: (_, __, { namespace }) => ({ path: namespace }),
  ...hierarchyQueries,
  cluster: routed(async (_, { name }, { loaders }) => (await loaders.clusterByName.load(name)) ?? null),
  clusters: (_, args, context, info) =>
    subtreeConnection(info, context, args, "ClusterFilter", (filter, page) =>
      clusterConnection(filter, page, context),
    ),
  stream: routed(async (_, { name }, { loaders }) => (await loaders.streamByName.load(name)) ?? null),
  streams: (_, args, context, info) =>
    subtreeConnection(info, context, args, "StreamFilter", (filter, page) =>
      streamConnection(filter, page, context),
    ),
  binding: routed((_, { stream, cluster }, context) => bindingByNames(stream, cluster, context)),
  bindings: (_, args, context, info) =>
    subtreeConnection(info, context, args, "BindingFilter", async (filter, page) => {
      const found = await context.services.catalog.bindings(filter, page);
      primeStreams(
        context.loaders,
        found.items.map((i) => i.node.stream),
      );
      return toConnection(found);
    }),
  changes: async (_, { first, after, waitMs }, { services }) =>
    toConnection(await services.catalog.changes({ first, after, waitMs })),
  indexLag: (_, __, context) => indexLag(context, () => true),
};
