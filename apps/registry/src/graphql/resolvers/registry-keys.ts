import type { MutationResolvers } from "../../generated/resolvers-types.ts";
import { accessOf } from "../authorize.ts";
import { payload } from "../payload.ts";

/** ROTATE REGISTRY KEY. */
export const registryKeyMutations: Pick<MutationResolvers, "rotateRegistryKey"> = {
  rotateRegistryKey: (_, __, context) =>
    payload(async () => {
      (await accessOf(context)).require("admin", "", "rotating this registry's signing key");
      return context.registryKeys.rotate();
    }),
};
