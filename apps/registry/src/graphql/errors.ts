import type { ApolloServerPlugin } from "@apollo/server";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import {
  ErrorCode,
  httpStatusOf,
  isErrorCode,
  isFaultCode,
  isRequestErrorCode,
  RegistryError,
} from "@stream-registry/core";
import { isDatabaseUnavailable } from "@stream-registry/store";
import type { GraphQLContext } from "./context.ts";

/** The error behind graphql-js's and Apollo's wrappers: of a resolver, a validation rule or a plugin. */
function rootCause(error: unknown): unknown {
  let cause = error;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  return cause;
}

/** What a request that found the database unavailable is told, wherever it failed. */
export const DATABASE_UNAVAILABLE_MESSAGE = "the registry's database is unavailable";

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
    // Apollo Server's own refusals of malformed requests are safe to show, without the values they quote.
    if (isRequestErrorCode(code))
      return { ...formatted, message: withoutEchoedValue(formatted.message, error) };
    if (isDatabaseUnavailable(original)) {
      return {
        ...formatted,
        message: DATABASE_UNAVAILABLE_MESSAGE,
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
 * graphql-js quotes a value it refused ('Variable "$input" got invalid value { ... } at "input.x";
 * ...', 'Expected value of type "X", found { ... }', 'String cannot represent a non string value:
 * ...'): a secret sent in the wrong place would come back in the answer, and secrets are never in
 * errors (issue 11). Where and why stay; the value goes. `error` is the one Apollo formats, whose
 * `originalError` is the reason graphql-js appended to its message.
 */
export function withoutEchoedValue(message: string, error: unknown): string {
  const inner = error instanceof GraphQLError ? error.originalError : undefined;
  const appended = inner && inner.message !== message && message.endsWith(`; ${inner.message}`);
  const head = appended ? message.slice(0, -(inner.message.length + 2)) : message;
  const reason = appended ? `; ${unquoted(inner.message)}` : "";
  const variable = /^Variable "\$[^"]+"(?= got invalid value )/.exec(head);
  if (variable) return `${variable[0]} got an invalid value${/ at "[^"]*"$/.exec(head)?.[0] ?? ""}${reason}`;
  const literal = /^Expected value of type "[^"]+"(?=, found )/.exec(head);
  if (literal) return `${literal[0]}, found another value${reason || "."}`;
  return unquoted(message);
}

/** A scalar's refusal without the value: "Int cannot represent non-integer value: 1.5" keeps its first part. */
function unquoted(reason: string): string {
  return reason.replace(/^(\w+ cannot represent [^:]*): [\s\S]*$/, "$1.");
}

/**
 * The HTTP status of a response that served nothing: the highest of its errors' statuses in core's
 * httpStatusOf (so an outage's 503 outranks a 4xx: retrying is the advice that matters), or
 * undefined when no error carries a registry code.
 */
export function failedResponseStatus(
  errors: readonly { extensions?: Record<string, unknown> | undefined }[],
): number | undefined {
  const statuses = errors
    .map((error) => error.extensions?.code)
    .filter(isErrorCode)
    .map((code) => httpStatusOf[code]);
  return statuses.length > 0 ? Math.max(...statuses) : undefined;
}

/**
 * Logs unexpected errors with the request id, and puts that id on faults for the caller to quote.
 * `onFault` sees each such error too (the registry notices a database that lost its tables).
 * A response that served nothing gets the HTTP status of its error code (core's httpStatusOf:
 * 503 for DATABASE_UNAVAILABLE, 500 for INTERNAL_SERVER_ERROR, 400 for QUERY_LIMIT_EXCEEDED, ...),
 * so load balancers and clients see an outage to retry, or a request to fix, not a 200. It is set
 * here, not in formatError: Apollo takes `extensions.http` from errors before formatting them.
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
            if (ext && isErrorCode(ext.code) && isFaultCode(ext.code)) ext.requestId = contextValue.requestId;
          }
          // Only when nothing was served: a partial result is still an answer. A status Apollo set
          // (400 for a request it could not parse) stays.
          const served = data && Object.values(data).some((value) => value !== null);
          const status = served ? undefined : failedResponseStatus(errors ?? []);
          if (status !== undefined && (response.http.status ?? 200) === 200) response.http.status = status;
        },
      };
    },
  };
}
