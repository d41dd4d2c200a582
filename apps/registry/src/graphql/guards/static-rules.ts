import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import type { GraphQLError, ValidationContext, ValidationRule } from "graphql";
import { queryLimitError, type LimitName } from "./limit-error.ts";
import type { QueryLimits } from "./query-limits.ts";

/**
 * Depth, alias and directive limits (graphql-armor), checked with graphql-js's own rules when a
 * document is validated, so a cached document is not counted again. graphql-armor reports only a
 * message; the count it found is read from it to give the client the numbers.
 */
export function staticLimitRules(limits: QueryLimits): ValidationRule[] {
  const report =
    (limit: LimitName, max: number, unit: string) =>
    (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(queryLimitError(limit, max, Number(/found (\d+)/.exec(error.message)?.[1]), unit));
  const options = (limit: LimitName, n: number, unit: string) => ({
    n,
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [report(limit, n, unit)],
  });
  return [
    maxDepthRule(options("depth", limits.maxDepth, "levels of fields")),
    maxAliasesRule(options("aliases", limits.maxAliases, "aliases")),
    maxDirectivesRule(options("directives", limits.maxDirectives, "directives")),
  ];
}
