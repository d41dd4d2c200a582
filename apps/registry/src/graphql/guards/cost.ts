import { getNullableType, isListType, type DocumentNode, type GraphQLSchema } from "graphql";
import { getComplexity, type ComplexityEstimator } from "graphql-query-complexity";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@stream-registry/core";
import { queryLimitError } from "./limit-error.ts";
import type { QueryLimits } from "./query-limits.ts";

/**
 * Every field costs 1, times the items of the lists above it: a connection's `first` (its default
 * page when omitted), `_entities`' representations, or `assumedListSize` for other lists.
 * `edges` and `nodes` are the items their connection already counted.
 */
export function costEstimator(assumedListSize: number): ComplexityEstimator {
  return ({ type, field, args, childComplexity }) => {
    if (type.name.startsWith("__")) return 1 + childComplexity;
    if (field.args.some((arg) => arg.name === "first")) {
      const first = typeof args.first === "number" ? args.first : DEFAULT_PAGE_SIZE;
      // Out-of-range pages are refused by the page-size check, with its own message.
      return 1 + Math.min(Math.max(first, 0), MAX_PAGE_SIZE) * childComplexity;
    }
    if (Array.isArray(args.representations)) return 1 + args.representations.length * childComplexity;
    const isList = isListType(getNullableType(field.type)) && !type.name.endsWith("Connection");
    return 1 + (isList ? assumedListSize : 1) * childComplexity;
  };
}

const NODES_EXCEEDED = "Query exceeds the maximum allowed number of nodes.";

type CostRequest = { schema: GraphQLSchema; document: DocumentNode; operationName: string | null };

/**
 * The operation's estimated cost (what the rate limit charges too); throws a QUERY_LIMIT_EXCEEDED
 * error when it is over the limit.
 */
export function checkCost(
  request: CostRequest,
  variables: Record<string, unknown> | undefined,
  limits: QueryLimits,
): number | undefined {
  const cost = estimateCost(request, variables, limits);
  if (cost !== undefined && cost > limits.maxCost)
    throw queryLimitError("cost", limits.maxCost, cost, "estimated fields");
  return cost;
}

/**
 * The operation's estimated cost; undefined when its variables do not fit their types, which
 * execution refuses with its own message.
 */
function estimateCost(
  request: CostRequest,
  variables: Record<string, unknown> | undefined,
  limits: QueryLimits,
): number | undefined {
  try {
    return getComplexity({
      schema: request.schema,
      query: request.document,
      operationName: request.operationName ?? undefined,
      variables: variables ?? {},
      estimators: [costEstimator(limits.assumedListSize)],
      // Fragments spread in many places are walked once per place; this bounds the walk itself.
      maxQueryNodes: limits.maxTokens,
    });
  } catch (error) {
    if (error instanceof Error && error.message === NODES_EXCEEDED) {
      throw queryLimitError("cost", limits.maxCost, limits.maxTokens, "fields (spread fragments), at least");
    }
    return undefined;
  }
}
