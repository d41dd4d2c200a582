import type {
  ChildRegistryResolvers,
  MutationResolvers,
  ParentRegistryResolvers,
  QueryResolvers,
} from "../../generated/resolvers-types.ts";
import { actorIn } from "../context.ts";
import { accessOf, callerIn, principalOf } from "../authorize.ts";
import { payload } from "../payload.ts";

/** The hierarchy's queries: this registry as others see it, and its children. */
export const hierarchyQueries: Pick<QueryResolvers, "registry" | "childRegistry"> = {
  registry: (_, __, { services }) => services.children.info(),
  // Who may know of the child: the child itself (checking what its parent holds of it), and those
  // who read anything of its subtree or above it.
  childRegistry: async (_, { registryId }, context) => {
    const child = await context.services.children.find(registryId);
    if (!child || principalOf(context).subject === `registry:${registryId}`) return child;
    return (await accessOf(context)).knowsOf(child.name) ? child : null;
  },
};

/** DECLARE / DROP PARENT REGISTRY, and what a child asks of its parent. */
export const hierarchyMutations: Pick<
  MutationResolvers,
  "declareParentRegistry" | "dropParentRegistry" | "registerChildRegistry" | "unregisterChildRegistry"
> = {
  declareParentRegistry: (_, { input }, context) =>
    payload(async () => {
      const { link, path } = await context.services.parent.declare(input, await callerIn(context));
      return { parent: link, namespace: { path } };
    }),
  dropParentRegistry: (_, __, context) =>
    payload(async () => {
      const { link, path } = await context.services.parent.drop(await callerIn(context));
      return { parent: link, namespace: { path } };
    }),
  registerChildRegistry: (_, { input }, context) =>
    payload(() => context.services.children.register(input, actorIn(context))),
  unregisterChildRegistry: (_, { input }, context) =>
    payload(async () => ({ child: await context.services.children.unregister(input, actorIn(context)) })),
};

export const ParentRegistry: ParentRegistryResolvers = {
  namespace: (link) => link.parentPath,
  status: (link) => link,
};

export const ChildRegistry: ChildRegistryResolvers = {
  path: (child, _, { services }) => services.children.pathOf(child.name),
  registeredAt: (child) => child.createdAt,
  health: (child) => child.health ?? { status: "UNKNOWN" },
  keys: (child, _, { services }) => services.children.keysOf(child.registryId),
};
