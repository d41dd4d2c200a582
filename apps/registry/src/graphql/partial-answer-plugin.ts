import type { ApolloServerPlugin } from "@apollo/server";
import type { GraphQLContext } from "./context.ts";

/**
 * Sends the errors of a partial answer (context.partial: a child registry a list had to leave
 * out) beside its data, after the errors of the operation itself.
 */
export function partialAnswerPlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== "single" || contextValue.partial.length === 0) return;
          const result = response.body.singleResult;
          result.errors = [...(result.errors ?? []), ...contextValue.partial];
        },
      };
    },
  };
}
