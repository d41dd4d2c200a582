import type { QueryResolvers } from "../../generated/resolvers-types.ts";
import { toConnection } from "../connection.ts";
import { routed } from "../routed.ts";
import { subtreeConnection } from "../subtree.ts";
import { indexLag } from "../indexed-list.ts";
import { apiTokenQueries } from "./api-tokens.ts";
import { grantQueries } from "./grants.ts";
import { childAdminQueries } from "./child-admin.ts";
import { hierarchyQueries } from "./hierarchy.ts";
import { schemaQueries } from "./schemas.ts";
import { connectorQueries } from "./connectors.ts";
import { primeStreams } from "../loaders.ts";
import { accessOf } from "../authorize.ts";
import {
  bindingByNames,
  clusterConnection,
  readableCluster,
  readableStream,
  streamConnection,
} from "./lookups.ts";

export const Query: QueryResolvers = {
  namespace: (_, __, { namespace }) => ({ path: namespace }),
  ...hierarchyQueries,
  ...childAdminQueries,
  ...apiTokenQueries,
  ...grantQueries,
  ...schemaQueries,
  ...connectorQueries,
  cluster: routed((_, { name }, context) => readableCluster(name, context)),
  clusters: (_, args, context, info) =>
    subtreeConnection(info, context, args, "ClusterFilter", (filter, page) =>
      clusterConnection(filter, page, context),
    ),
  stream: routed((_, { name }, context) => readableStream(name, context)),
  streams: (_, args, context, info) =>
    subtreeConnection(info, context, args, "StreamFilter", (filter, page) =>
      streamConnection(filter, page, context),
    ),
  binding: routed(async (_, { stream, cluster }, context) =>
    (await accessOf(context)).can("reader", "", stream) ? bindingByNames(stream, cluster, context) : null,
  ),
  bindings: (_, args, context, info) =>
    subtreeConnection(info, context, args, "BindingFilter", async (filter, page) => {
      const found = await context.services.catalog.bindings(filter, page, await accessOf(context));
      primeStreams(
        context.loaders,
        found.items.map((i) => i.node.stream),
      );
      return toConnection(found);
    }),
  changes: async (_, { first, after, waitMs }, context) =>
    toConnection(
      await context.services.changeFeed.changes({ first, after, waitMs }, await accessOf(context)),
    ),
  indexLag: (_, __, context) => indexLag(context, () => true),
};
