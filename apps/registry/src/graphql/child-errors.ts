import { ErrorCode, isErrorCode } from "@stream-registry/core";
import type { RemoteGraphQLError } from "@stream-registry/federation";
import type { GraphQLFormattedError, GraphQLResolveInfo } from "graphql";

/**
 * A child registry's GraphQL error as an error of this answer, at the field being resolved: its
 * code (INTERNAL_SERVER_ERROR if it gave none of ours) and facts, the namespace it concerns (a
 * registry further down may have named a deeper one), without its request id (the same request).
 */
export function childErrorEntry(
  error: RemoteGraphQLError,
  namespace: string,
  info: GraphQLResolveInfo,
): GraphQLFormattedError {
  const { requestId: _same, code, ...facts } = error.extensions ?? {};
  return {
    message: error.message,
    path: pathOf(info),
    extensions: { namespace, ...facts, code: isErrorCode(code) ? code : ErrorCode.INTERNAL_SERVER_ERROR },
  };
}

/** The response path of the field being resolved. */
export function pathOf(info: GraphQLResolveInfo): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let at: GraphQLResolveInfo["path"] | undefined = info.path; at; at = at.prev) keys.unshift(at.key);
  return keys;
}
