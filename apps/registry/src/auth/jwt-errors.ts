import {
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type ProtectedHeaderParameters,
} from "jose";
import { AuthenticationError } from "./authentication-error.ts";

/** The algorithms a JWT may be signed with: asymmetric only (no "none", no shared-secret HMAC). */
export const ASYMMETRIC_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
] as const;

/** Whether a credential is shaped as a JWS in compact form: three base64url parts. */
export function isJwtShape(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(credential);
}

/**
 * A JWT's header and claims, unverified: only to pick the verifier and refuse early what no
 * verifier accepts (an algorithm not allowed, "none" among them). Throws AuthenticationError.
 */
export function peekJwt(
  credential: string,
  algorithms: readonly string[],
): { header: ProtectedHeaderParameters; claims: JWTPayload } {
  let header: ProtectedHeaderParameters;
  let claims: JWTPayload;
  try {
    header = decodeProtectedHeader(credential);
    claims = decodeJwt(credential);
  } catch {
    throw new AuthenticationError("malformed token: not a JWT this registry can read");
  }
  if (typeof header.alg !== "string" || !algorithms.includes(header.alg)) {
    throw new AuthenticationError(
      `algorithm ${JSON.stringify(header.alg ?? null)} is not allowed (allowed: ${algorithms.join(", ")})`,
    );
  }
  return { header, claims };
}

/** jose's verification error as the reason a request is refused; anything else is rethrown. */
export function jwtFailure(
  error: unknown,
  expected: { issuer: string; audience: string },
): AuthenticationError {
  if (error instanceof AuthenticationError) return error;
  if (error instanceof errors.JWTExpired) return new AuthenticationError("token expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud")
      return new AuthenticationError(`wrong audience: the token is not for ${expected.audience}`);
    if (error.claim === "iss")
      return new AuthenticationError(`wrong issuer: the token is not from ${expected.issuer}`);
    if (error.claim === "nbf" || error.claim === "iat") return new AuthenticationError("token not valid yet");
    return new AuthenticationError(
      `claim ${error.claim} ${error.reason === "missing" ? "missing" : "not valid"}`,
    );
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return new AuthenticationError("bad signature");
  if (error instanceof errors.JOSEAlgNotAllowed) return new AuthenticationError("algorithm not allowed");
  if (error instanceof errors.JWKSNoMatchingKey) {
    return new AuthenticationError(`no key of ${expected.issuer} matches the token's key id`);
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return new AuthenticationError(`the keys of ${expected.issuer} could not be read: ${error.message}`);
  }
  if (error instanceof errors.JOSEError) return new AuthenticationError(`malformed token: ${error.message}`);
  throw error;
}
