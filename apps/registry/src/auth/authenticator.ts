import { ANONYMOUS, type Principal } from "@stream-registry/core";
import { decodeJwt } from "jose";
import type { ApiTokenVerifier } from "./api-token-verifier.ts";
import { API_TOKEN_PREFIX } from "./api-token-value.ts";
import { AuthenticationError } from "./authentication-error.ts";
import { basicPassword } from "./basic-credentials.ts";
import { isJwtShape } from "./jwt-errors.ts";
import type { OidcVerifier } from "./oidc-verifier.ts";

/** Verifies the tokens other registries sign (a parent calling this one): "Across the tree" in docs/security.md. */
export interface RegistryTokenVerifier {
  verify(credential: string): Promise<Principal>;
}

export interface AuthenticatorDeps {
  mode: "on" | "none";
  apiTokens: ApiTokenVerifier;
  oidc: OidcVerifier | undefined;
  registries: RegistryTokenVerifier | undefined;
}

/** The issuer prefix of the tokens registries sign: `registry:<registry id>`. */
export const REGISTRY_ISSUER_PREFIX = "registry:";

/**
 * Who a request is from, from its Authorization header alone: `Bearer <credential>`, where the
 * credential is an API token (srt_...), a JWT of the configured OIDC issuer, or a JWT another
 * registry signed (its `iss` is registry:<id>). Nothing else a caller sends is an identity. With
 * REGISTRY_AUTH=none every request is anonymous.
 */
export class Authenticator {
  constructor(private readonly deps: AuthenticatorDeps) {}

  get enabled(): boolean {
    return this.deps.mode === "on";
  }

  /** The verified principal; throws AuthenticationError naming why there is none. */
  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (!this.enabled) return ANONYMOUS;
    if (authorization === undefined || authorization.trim() === "") {
      throw new AuthenticationError("no Authorization header", false);
    }
    const match = /^Bearer +([^\s]+) *$/i.exec(authorization);
    if (!match) throw new AuthenticationError('the Authorization header is not "Bearer <token>"');
    const credential = match[1]!;
    if (credential.startsWith(API_TOKEN_PREFIX)) return this.deps.apiTokens.verify(credential);
    if (!isJwtShape(credential)) {
      throw new AuthenticationError(
        `malformed token: neither an API token (${API_TOKEN_PREFIX}...) nor a JWT`,
      );
    }
    if (issuerOf(credential).startsWith(REGISTRY_ISSUER_PREFIX)) {
      if (!this.deps.registries)
        throw new AuthenticationError("tokens of other registries are not accepted here");
      return this.deps.registries.verify(credential);
    }
    if (!this.deps.oidc) {
      throw new AuthenticationError(
        "JWTs are not accepted: this registry has no OIDC issuer (REGISTRY_OIDC_ISSUER)",
      );
    }
    return this.deps.oidc.verify(credential);
  }

  /**
   * Who a request to the schema registry's REST API is from: as `authenticate`, or HTTP Basic
   * credentials whose password is an API token, as Confluent's clients send them.
   */
  async authenticateSchemaClient(authorization: string | undefined): Promise<Principal> {
    const password = this.enabled && authorization ? basicPassword(authorization) : undefined;
    if (password === undefined) return this.authenticate(authorization);
    if (!password.startsWith(API_TOKEN_PREFIX)) {
      throw new AuthenticationError(
        `the password of Basic credentials must be an API token (${API_TOKEN_PREFIX}...)`,
      );
    }
    return this.deps.apiTokens.verify(password);
  }
}

/** A JWT's `iss`, unverified: only to pick its verifier. */
function issuerOf(credential: string): string {
  try {
    const { iss } = decodeJwt(credential);
    return typeof iss === "string" ? iss : "";
  } catch {
    throw new AuthenticationError("malformed token: not a JWT this registry can read");
  }
}
