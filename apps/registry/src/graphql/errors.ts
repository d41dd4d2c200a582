import type { ApolloServerPlugin } from "@apollo/server";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { ErrorCode, RegistryError } from "@stream-registry/core";
import { isDatabaseUnavailable } from "@stream-registry/store";
import type { GraphQLContext } from "./context.ts";

/** Codes Apollo Server itself sets for malformed requests; they are safe to show as they are. */
const apolloCodes = new Set([
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_USER_INPUT",
  "BAD_REQUEST",
  "OPERATION_RESOLUTION_FAILURE",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
]);

/** The error behind graphql-js's and Apollo's wrappers: of a resolver, a validation rule or a plugin. */
function rootCause(error: unknown): unknown {
  let cause = error;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  return cause;
}

/**
 * Every error leaves with `extensions.code`: registry errors keep theirs, a lost database becomes
 * DATABASE_UNAVAILABLE, anything unknown becomes INTERNAL_SERVER_ERROR, masked in production.
 */
export function createErrorFormatter(production: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = rootCause(error);
    if (original instanceof RegistryError) {
      return {
        ...formatted,
        message: original.message,
        extensions: { code: original.code, field: original.field, ...original.details },
      };
    }
    const code = formatted.extensions?.code;
    if (typeof code === "string" && apolloCodes.has(code)) return formatted;
    if (isDatabaseUnavailable(original)) {
      return {
        ...formatted,
        message: "the registry's database is unavailable",
        extensions: { code: ErrorCode.DATABASE_UNAVAILABLE },
      };
    }
    return {
      ...formatted,
      message: production ? "Internal server error" : formatted.message,
      extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
    };
  };
}

/**
 * Logs unexpected errors with the request id, and puts that id on them for the caller to quote.
 * `onFault` sees each such error too (the registry notices a database that lost its tables).
 * A response that failed only because the database is unavailable gets HTTP 503, so load
 * balancers and clients see an outage to retry, not a 200.
 */
export function errorLoggingPlugin(
  onFault: (error: unknown, requestId: string) => void = () => {},
): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            const original = rootCause(error);
            if (original instanceof RegistryError || !error.path) continue;
            contextValue.logger.error(
              { requestId: contextValue.requestId, err: original, path: error.path },
              "resolver failed",
            );
            onFault(original, contextValue.requestId);
          }
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== "single") return;
          const { errors, data } = response.body.singleResult;
          for (const error of errors ?? []) {
            const ext = error.extensions as Record<string, unknown> | undefined;
            if (ext?.code === ErrorCode.INTERNAL_SERVER_ERROR || ext?.code === ErrorCode.DATABASE_UNAVAILABLE)
              ext.requestId = contextValue.requestId;
          }
          const unavailable = errors?.some((e) => e.extensions?.code === ErrorCode.DATABASE_UNAVAILABLE);
          // Only when nothing was served: a partial result is still an answer.
          const served = data && Object.values(data).some((value) => value !== null);
          if (unavailable && !served) response.http.status = 503;
        },
      };
    },
  };
}
