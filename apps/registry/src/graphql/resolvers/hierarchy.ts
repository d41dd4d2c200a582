import type {
  ChildRegistryResolvers,
  MutationResolvers,
  ParentRegistryResolvers,
  QueryResolvers,
} from "../../generated/resolvers-types.ts";
import { payload } from "../payload.ts";

/** The hierarchy's queries: this registry as others see it, and its children. */
export const hierarchyQueries: Pick<QueryResolvers, "registry" | "childRegistry"> = {
  registry: (_, __, { services }) => services.children.info(),
  childRegistry: (_, { registryId }, { services }) => services.children.find(registryId),
};

/** DECLARE / DROP PARENT REGISTRY, and what a child asks of its parent. */
export const hierarchyMutations: Pick<
  MutationResolvers,
  "declareParentRegistry" | "dropParentRegistry" | "registerChildRegistry" | "unregisterChildRegistry"
> = {
  declareParentRegistry: (_, { input }, { services, actor }) =>
    payload(async () => {
      const { link, path } = await services.parent.declare(input, { actor });
      return { parent: link, namespace: { path } };
    }),
  dropParentRegistry: (_, __, { services, actor }) =>
    payload(async () => {
      const { link, path } = await services.parent.drop({ actor });
      return { parent: link, namespace: { path } };
    }),
  registerChildRegistry: (_, { input }, { services, actor }) =>
    payload(() => services.children.register(input, { actor })),
  unregisterChildRegistry: (_, { input }, { services, actor }) =>
    payload(async () => ({ child: await services.children.unregister(input, { actor }) })),
};

export const ParentRegistry: ParentRegistryResolvers = {
  namespace: (link) => link.parentPath,
  status: (link) => link,
};

export const ChildRegistry: ChildRegistryResolvers = {
  path: (child, _, { services }) => services.children.pathOf(child.name),
  registeredAt: (child) => child.createdAt,
  health: (child) => child.health ?? { status: "UNKNOWN" },
};
