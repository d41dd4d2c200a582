import { GraphQLError } from "graphql";
import { ErrorCode, RegistryError } from "@stream-registry/core";

export type LimitName = "depth" | "aliases" | "directives" | "tokens" | "cost" | "fields" | "time";

/**
 * A refused request: says which limit, its maximum and what the request reached, and what to change.
 * Wrapped in a GraphQLError with HTTP 400 for the places outside resolvers that Apollo reports as is.
 */
export function queryLimitError(limit: LimitName, max: number, found: number, unit: string): GraphQLError {
  const message =
    `query exceeds the ${limit} limit: ${found} ${unit}, the maximum is ${max}; ` +
    `ask for less (smaller pages, fewer aliases or nested lists) or split the request`;
  const cause = new RegistryError(ErrorCode.QUERY_LIMIT_EXCEEDED, message, [], { limit, max, found });
  return new GraphQLError(message, {
    originalError: cause,
    extensions: { code: cause.code, limit, max, found, http: { status: 400 } },
  });
}
