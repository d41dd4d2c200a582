import type { MutationResolvers, QueryResolvers } from "../../generated/resolvers-types.ts";
import { accessOf, callerIn } from "../authorize.ts";
import { payload } from "../payload.ts";

/** SHOW CHILD REGISTRIES, for admins. */
export const childAdminQueries: Pick<QueryResolvers, "childRegistries"> = {
  childRegistries: async (_, __, context) =>
    context.services.childAdmin.list({ access: await accessOf(context) }),
};

/** SUSPEND / RESUME / DROP CHILD REGISTRY, for admins (services/child-admin-service.ts). */
export const childAdminMutations: Pick<
  MutationResolvers,
  "suspendChildRegistry" | "resumeChildRegistry" | "dropChildRegistry"
> = {
  suspendChildRegistry: (_, { input }, context) =>
    payload(async () => ({
      child: await context.services.childAdmin.administer("suspend", input.path, await callerIn(context)),
    })),
  resumeChildRegistry: (_, { input }, context) =>
    payload(async () => ({
      child: await context.services.childAdmin.administer("resume", input.path, await callerIn(context)),
    })),
  dropChildRegistry: (_, { input }, context) =>
    payload(async () => ({
      child: await context.services.childAdmin.administer("drop", input.path, await callerIn(context)),
    })),
};
