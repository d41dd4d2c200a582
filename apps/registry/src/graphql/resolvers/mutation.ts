import type { MutationResolvers } from "../../generated/resolvers-types.ts";
import { payload } from "../payload.ts";
import { routed } from "../routed.ts";
import { hierarchyMutations } from "./hierarchy.ts";

export const Mutation: MutationResolvers = {
  declareDefaultNamespace: (_, { input }, { services, actor }) =>
    payload(async () => ({ namespace: await services.namespaces.declareDefault(input.name, { actor }) })),
  ...hierarchyMutations,
  declareCluster: routed((_, { input }, { services, actor }) =>
    payload(() => services.clusters.declare(input, { actor })),
  ),
  deleteCluster: routed((_, { input }, { services, actor }) =>
    payload(async () => ({ cluster: await services.clusters.delete(input.name, { actor }) })),
  ),
  createStream: routed((_, { input }, { services, actor }) =>
    payload(async () => ({ stream: await services.streams.create(input, { actor }) })),
  ),
  updateStream: routed((_, { input }, { services, actor }) =>
    payload(async () => ({ stream: await services.streams.update(input, { actor }) })),
  ),
  deleteStream: routed((_, { input }, { services, actor }) =>
    payload(() => services.streams.delete(input.name, input.cascade ?? false, { actor })),
  ),
  createBinding: routed((_, { input }, { services, actor }) =>
    payload(async () => ({ binding: await services.bindings.create(input, { actor }) })),
  ),
  updateBinding: routed((_, { input }, { services, actor }) =>
    payload(async () => ({ binding: await services.bindings.update(input, { actor }) })),
  ),
  deleteBinding: routed((_, { input }, { services, actor }) =>
    payload(async () => ({ binding: await services.bindings.delete(input, { actor }) })),
  ),
};
