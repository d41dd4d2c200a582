import type { ApolloServerPlugin } from "@apollo/server";
import type { GraphQLContext } from "./context.ts";

/** Hands the operation's name, as Apollo resolved it from the document, to the request log. */
export function operationNamePlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operationName, contextValue }) {
          if (operationName) contextValue.requestLog.operationName = operationName;
        },
      };
    },
  };
}
