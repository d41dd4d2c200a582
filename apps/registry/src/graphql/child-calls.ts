import { orRemoteError, type RemoteAnswer, type RemoteRegistryError } from "@stream-registry/federation";
import type { GraphQLContext } from "./context.ts";

/** Registries an operation may pass through: a loop (a tree being rebuilt) ends here. */
export const MAX_HOPS = 16;
/** The header that counts the registries an operation passed through. */
export const HOPS_HEADER = "x-registry-hops";
/** The header that says how long the registry that sent an operation waits for its answer. */
export const BUDGET_HEADER = "x-registry-budget-ms";
/** How long a registry asked by a client waits for a child. */
const CHILD_TIMEOUT_MS = 10_000;
/** What a registry keeps of its own budget to answer in: its children get the rest. */
const HOP_MARGIN_MS = 1_000;
/** The longest budget taken from a header. */
const MAX_BUDGET_MS = 60_000;

/** The budget a request came with (its BUDGET_HEADER), as when it runs out; undefined without one. */
export function budgetFrom(header: string | undefined, now = Date.now()): number | undefined {
  const budget = Number.parseInt(header ?? "", 10);
  return Number.isSafeInteger(budget) && budget >= 0 ? now + Math.min(budget, MAX_BUDGET_MS) : undefined;
}

/**
 * How to call a child now: how long to wait (at most until the caller goes away), and the headers
 * that go along: a token this registry signs for that child alone, carrying the request's
 * principal (the child authorizes that user with its own grants), the request id, one hop more,
 * and that wait as the child's own budget. Nothing else of what the caller sent goes along: no
 * identity header of its own making.
 */
export function childCall(
  context: GraphQLContext,
  child: { registryId: string },
): { timeoutMs: number; signal: AbortSignal; headers: Record<string, string> } {
  const now = Date.now();
  const endsAt =
    context.budgetEndsAt === undefined ? now + CHILD_TIMEOUT_MS : context.budgetEndsAt - HOP_MARGIN_MS;
  const timeoutMs = Math.max(0, endsAt - now);
  return {
    timeoutMs,
    signal: context.clientGone,
    headers: {
      ...context.registryKeys.headersFor(child.registryId, context.principal),
      "x-request-id": context.requestId,
      [HOPS_HEADER]: String(context.hops + 1),
      [BUDGET_HEADER]: String(timeoutMs),
    },
  };
}

/**
 * Sends `query` to the child as `childCall` says (its token, deadline and the caller's signal):
 * the child's answer, or the RemoteRegistryError of a child that gave none.
 */
export function askChild<T>(
  context: GraphQLContext,
  child: { url: string; registryId: string },
  query: string,
  variables: Record<string, unknown>,
): Promise<RemoteAnswer<T> | RemoteRegistryError> {
  return orRemoteError(
    context.services.children.calls.post<T>(child.url, query, variables, childCall(context, child)),
  );
}
