import type { MutationResolvers } from "../../generated/resolvers-types.ts";
import { callerIn } from "../authorize.ts";
import { payload } from "../payload.ts";
import { routed } from "../routed.ts";
import { apiTokenMutations } from "./api-tokens.ts";
import { registryKeyMutations } from "./registry-keys.ts";
import { grantMutations } from "./grants.ts";
import { childAdminMutations } from "./child-admin.ts";
import { hierarchyMutations } from "./hierarchy.ts";
import { schemaMutations } from "./schemas.ts";
import { connectorMutations } from "./connectors.ts";

export const Mutation: MutationResolvers = {
  declareDefaultNamespace: (_, { input }, context) =>
    payload(async () => ({
      namespace: await context.services.namespaces.declareDefault(input.name, await callerIn(context)),
    })),
  ...hierarchyMutations,
  ...childAdminMutations,
  ...grantMutations,
  ...apiTokenMutations,
  ...registryKeyMutations,
  ...schemaMutations,
  ...connectorMutations,
  declareCluster: routed((_, { input }, context) =>
    payload(async () => context.services.clusters.declare(input, await callerIn(context))),
  ),
  deleteCluster: routed((_, { input }, context) =>
    payload(async () => ({
      cluster: await context.services.clusters.delete(input.name, await callerIn(context)),
    })),
  ),
  createStream: routed((_, { input }, context) =>
    payload(async () => ({ stream: await context.services.streams.create(input, await callerIn(context)) })),
  ),
  updateStream: routed((_, { input }, context) =>
    payload(async () => ({ stream: await context.services.streams.update(input, await callerIn(context)) })),
  ),
  deleteStream: routed((_, { input }, context) =>
    payload(async () =>
      context.services.streams.delete(input.name, input.cascade ?? false, await callerIn(context)),
    ),
  ),
  createBinding: routed((_, { input }, context) =>
    payload(async () => ({
      binding: await context.services.bindings.create(input, await callerIn(context)),
    })),
  ),
  updateBinding: routed((_, { input }, context) =>
    payload(async () => ({
      binding: await context.services.bindings.update(input, await callerIn(context)),
    })),
  ),
  deleteBinding: routed((_, { input }, context) =>
    payload(async () => ({
      binding: await context.services.bindings.delete(input, await callerIn(context)),
    })),
  ),
};
