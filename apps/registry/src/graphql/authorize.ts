import { actorOf, ANONYMOUS, type Access, type Principal } from "@stream-registry/core";
import type { Caller } from "../services/deps.ts";
import type { GraphQLContext } from "./context.ts";

/**
 * What a request's principal may do here (issue 11): its grants are read once per request, when
 * first needed, so a revocation counts from the next request on. Kept by the request's loaders,
 * which are made per request and shared by Apollo's copies of the context.
 */
const accesses = new WeakMap<object, Promise<Access>>();

/**
 * Who the request is from: the principal authentication verified. A context without one (before
 * authentication is wired in) is REGISTRY_AUTH=none's anonymous principal, with every right.
 */
export function principalOf(context: GraphQLContext): Principal {
  return (context as { principal?: Principal }).principal ?? ANONYMOUS;
}

export function accessOf(context: GraphQLContext): Promise<Access> {
  let access = accesses.get(context.loaders);
  if (!access) {
    access = context.services.grants.accessOf(principalOf(context), context.namespace);
    accesses.set(context.loaders, access);
  }
  return access;
}

/** Who asks for a change (the change log's actor) and what it may do: what services take to write. */
export async function callerIn(context: GraphQLContext): Promise<Caller> {
  const { principal, actor } = context as { principal?: Principal; actor?: string };
  return {
    actor: principal ? actorOf(principal) : (actor ?? actorOf(ANONYMOUS)),
    access: await accessOf(context),
  };
}
