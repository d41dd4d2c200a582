import type {
  ApiTokenResolvers,
  MutationResolvers,
  QueryResolvers,
} from "../../generated/resolvers-types.ts";
import { accessOf, callerIn } from "../authorize.ts";
import { payload } from "../payload.ts";

/** SHOW TOKENS. */
export const apiTokenQueries: Pick<QueryResolvers, "apiTokens"> = {
  apiTokens: async (_, __, context) => context.services.tokens.list(await accessOf(context)),
};

/** CREATE TOKEN, REVOKE TOKEN. */
export const apiTokenMutations: Pick<MutationResolvers, "createApiToken" | "revokeApiToken"> = {
  createApiToken: (_, { input }, context) =>
    payload(async () => context.services.tokens.create(input, await callerIn(context))),
  revokeApiToken: (_, { input }, context) =>
    payload(async () => ({
      token: await context.services.tokens.revoke(input.name, await callerIn(context)),
    })),
};

export const ApiToken: ApiTokenResolvers = {
  subject: (token) => `token:${token.name}`,
  state: (token) =>
    token.revokedAt
      ? "REVOKED"
      : token.expiresAt && token.expiresAt.getTime() <= Date.now()
        ? "EXPIRED"
        : "ACTIVE",
};
