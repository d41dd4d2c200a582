import { UsageError } from "./errors.ts";

/**
 * Where a registry with child registries answers a list from: `index`, its discovery index (which
 * follows each child's change feed, normally a few hundred ms behind), or `live`, every child asked
 * at once (a child that cannot be reached is left out: a partial result).
 */
export type Consistency = "index" | "live";

export const CONSISTENCIES: readonly Consistency[] = ["index", "live"];
export const DEFAULT_CONSISTENCY: Consistency = "index";

/** `--consistency` / SRCTL_CONSISTENCY: index or live (any case); `option` names it in the error. */
export function parseConsistency(text: string, option: string): Consistency {
  const value = text.trim().toLowerCase();
  const found = CONSISTENCIES.find((c) => c === value);
  if (!found) throw new UsageError(`${option} must be ${CONSISTENCIES.join(" or ")}, got "${text}"`);
  return found;
}

/** The GraphQL enum value (Consistency.INDEX / LIVE) a list's `consistency` argument takes. */
export function consistencyArgument(consistency: Consistency): "INDEX" | "LIVE" {
  return consistency === "live" ? "LIVE" : "INDEX";
}
