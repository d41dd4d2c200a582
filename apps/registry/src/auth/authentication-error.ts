import { ErrorCode } from "@stream-registry/core";

/**
 * A request whose credential could not be verified (or that has none): answered HTTP 401 with a
 * GraphQL error UNAUTHENTICATED and a WWW-Authenticate header, both naming `reason`.
 */
export class AuthenticationError extends Error {
  readonly code = ErrorCode.UNAUTHENTICATED;

  /**
   * `reason`: why, for the caller ("no Authorization header", "token expired", "wrong audience: ...").
   * `credentialGiven`: false when the request carried none (RFC 6750 then names no error).
   */
  constructor(
    readonly reason: string,
    readonly credentialGiven = true,
  ) {
    super(`not authenticated: ${reason}`);
    this.name = "AuthenticationError";
  }

  /** The WWW-Authenticate header (RFC 6750 section 3). */
  get challenge(): string {
    const realm = 'Bearer realm="stream-registry"';
    if (!this.credentialGiven) return realm;
    // A quoted-string: no quotes, backslashes or control characters inside.
    const description = this.reason.replace(/[\\"\p{Cc}]/gu, "'").slice(0, 200);
    return `${realm}, error="invalid_token", error_description="${description}"`;
  }
}
