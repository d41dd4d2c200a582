import type { MutationResolvers } from "../../generated/resolvers-types.ts";
import { payload } from "../payload.ts";
import { hierarchyMutations } from "./hierarchy.ts";

export const Mutation: MutationResolvers = {
  declareDefaultNamespace: (_, { input }, { services, actor }) =>
    payload(async () => ({ namespace: await services.namespaces.declareDefault(input.name, { actor }) })),
  ...hierarchyMutations,
  declareCluster: (_, { input }, { services, actor }) =>
    payload(() => services.clusters.declare(input, { actor })),
  deleteCluster: (_, { input }, { services, actor }) =>
    payload(async () => ({ cluster: await services.clusters.delete(input.name, { actor }) })),
  createStream: (_, { input }, { services, actor }) =>
    payload(async () => ({ stream: await services.streams.create(input, { actor }) })),
  updateStream: (_, { input }, { services, actor }) =>
    payload(async () => ({ stream: await services.streams.update(input, { actor }) })),
  deleteStream: (_, { input }, { services, actor }) =>
    payload(() => services.streams.delete(input.name, input.cascade ?? false, { actor })),
  createBinding: (_, { input }, { services, actor }) =>
    payload(async () => ({ binding: await services.bindings.create(input, { actor }) })),
  updateBinding: (_, { input }, { services, actor }) =>
    payload(async () => ({ binding: await services.bindings.update(input, { actor }) })),
  deleteBinding: (_, { input }, { services, actor }) =>
    payload(async () => ({ binding: await services.bindings.delete(input, { actor }) })),
};
