import { actorOf, type Principal } from "@stream-registry/core";
import type { GraphQLFormattedError } from "graphql";
import type { RegistryKeys } from "../auth/registry-keys.ts";
import type { Logger } from "../logger.ts";
import type { Actor } from "../services/deps.ts";
import type { Services } from "../services/services.ts";
import type { RequestRate } from "./guards/rate-limit.ts";
import type { Loaders } from "./loaders.ts";
import type { PassedThrough } from "./pass-through.ts";

/** Built per request by the HTTP layer. */
export interface GraphQLContext {
  requestId: string;
  /**
   * Who is asking, as verified from the request's credential (auth/authenticator.ts); never a
   * header the caller sets. The change log names `actorOf(principal)`.
   */
  principal: Principal;
  /** Registries this operation was forwarded through before this one (the x-registry-hops header). */
  hops: number;
  /** When the registry that forwarded this operation stops waiting for it (epoch ms); undefined from a client. */
  budgetEndsAt: number | undefined;
  /**
   * Aborts when the caller goes away before the answer is sent (its connection closed): the calls
   * to children made for it stop then, and so do theirs, down the tree.
   */
  clientGone: AbortSignal;
  namespace: string;
  services: Services;
  /** Signs the tokens this registry sends its children for the request's principal (child-calls.ts). */
  registryKeys: RegistryKeys;
  loaders: Loaders;
  logger: Logger;
  /**
   * Filled in once Apollo has resolved the operation, for the request log line. A holder object,
   * because Apollo Server hands resolvers a shallow copy of the context.
   */
  requestLog: { operationName?: string };
  /**
   * Errors of a partial answer, sent beside its data (a child registry whose items a list left
   * out): added to the response by partialAnswerPlugin. Shared by Apollo's copies of the context.
   */
  partial: GraphQLFormattedError[];
  /**
   * What the request spends of its principal's rate limit: its cost once resolved, and again for
   * each child registry it asks (`chargeChildren`, before the calls go out).
   */
  rateLimit: RequestRate;
  /** What a pass-through asked a child for this request, when the answer was not passed on whole. */
  passedThrough?: PassedThrough;
}

/** Who the change log names for a change this request makes. */
export function actorIn(context: Pick<GraphQLContext, "principal">): Actor {
  return { actor: actorOf(context.principal) };
}
