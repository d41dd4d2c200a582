import { pathOfBelow } from "@stream-registry/core";
import type { GrantResolvers, MutationResolvers, QueryResolvers } from "../../generated/resolvers-types.ts";
import { accessOf, callerIn } from "../authorize.ts";
import { toConnection } from "../connection.ts";
import { payload } from "../payload.ts";
import { routed } from "../routed.ts";

/** SHOW GRANTS, of this registry or of the one that owns `namespace`. */
export const grantQueries: Pick<QueryResolvers, "grants"> = {
  grants: routed(async (_, { filter, first, after }, context) =>
    toConnection(await context.services.grants.list(filter, { first, after }, await accessOf(context))),
  ),
};

/** GRANT and REVOKE, kept by this registry or forwarded to the one that owns `input.namespace`. */
export const grantMutations: Pick<MutationResolvers, "grant" | "revoke"> = {
  grant: routed((_, { input }, context) =>
    payload(async () => context.services.grants.grant(input, await callerIn(context))),
  ),
  revoke: routed((_, { input }, context) =>
    payload(async () => ({ grant: await context.services.grants.revoke(input, await callerIn(context)) })),
  ),
};

export const Grant: GrantResolvers = {
  principal: (grant, _, { services }) => services.grants.shown(grant.principal),
  role: (grant) => (grant.role === "admin" ? "ADMIN" : grant.role === "writer" ? "WRITER" : "READER"),
  namespace: (grant, _, { namespace }) => pathOfBelow(namespace, grant.scope),
};
