import type { ApolloServerPlugin } from "@apollo/server";
import type { GraphQLError } from "graphql";
import { ErrorCode } from "@stream-registry/core";
import type { GraphQLContext } from "../context.ts";
import { checkCost } from "./cost.ts";
import { queryLimitError } from "./limit-error.ts";
import type { QueryLimits } from "./query-limits.ts";

/**
 * The cost estimate before execution, then a budget while it runs: a request that passed the
 * estimate (a list longer than assumed, a slow database) still stops at `maxFields` resolved fields
 * or `timeoutMs`, and then answers with the refusal alone, since its partial result could be
 * the very thing that must not be built.
 */
export function queryBudgetPlugin(limits: QueryLimits): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      let exceeded: GraphQLError | undefined;
      return {
        async didResolveOperation({ schema, document, request, operationName, contextValue }) {
          // Estimated once: the rate limit charges the same figure (rate-limit-plugin.ts).
          contextValue.rateLimit.estimated = checkCost(
            { schema, document, operationName },
            request.variables,
            limits,
          );
        },
        async executionDidStart({ operation }) {
          const started = performance.now();
          // A mutation's own work (its write) must not be cut short and then reported as refused.
          const timed = operation?.operation === "query";
          let fields = 0;
          return {
            willResolveField() {
              if (exceeded) throw exceeded;
              fields += 1;
              const elapsed = performance.now() - started;
              if (fields > limits.maxFields) {
                const unit = timed ? "fields resolved" : "fields resolved (the mutation itself was applied)";
                exceeded = queryLimitError("fields", limits.maxFields, fields, unit);
              } else if (timed && elapsed > limits.timeoutMs) {
                exceeded = queryLimitError("time", limits.timeoutMs, Math.round(elapsed), "ms spent");
              }
              if (exceeded) throw exceeded;
            },
          };
        },
        async willSendResponse({ response }) {
          if (!exceeded || response.body.kind !== "single") return;
          const refusal = response.body.singleResult.errors?.find(
            (error) => error.extensions?.code === ErrorCode.QUERY_LIMIT_EXCEEDED,
          );
          response.body.singleResult = { data: null, errors: refusal ? [refusal] : [] };
        },
      };
    },
  };
}
