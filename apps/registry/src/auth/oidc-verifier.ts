import { isRedirectStatus, redirectRefusal, type Principal } from "@stream-registry/core";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { AuthenticationError } from "./authentication-error.ts";
import type { OidcConfig } from "./auth-config.ts";
import { ASYMMETRIC_ALGORITHMS, jwtFailure, peekJwt } from "./jwt-errors.ts";

/** Clock skew allowed between the issuer and this registry. */
const CLOCK_TOLERANCE_S = 30;
/** How long the issuer's discovery document may take. */
const DISCOVERY_TIMEOUT_MS = 5_000;
/** After the discovery document could not be read, it is asked for again no sooner than this. */
const DISCOVERY_RETRY_MS = 5_000;
/** Groups taken from one token at most, and the longest group name. */
const MAX_GROUPS = 256;
const MAX_GROUP_LENGTH = 256;

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/**
 * Verifies an OIDC issuer's JWTs (jose: jwtVerify with the issuer's JWKS, fetched from the
 * jwks_uri of its discovery document or REGISTRY_OIDC_JWKS_URL, cached and re-read on an unknown
 * key id): asymmetric algorithms only, the configured issuer and audience, 30 s of clock skew.
 * A verified token is the principal user:<sub> with the groups of REGISTRY_OIDC_GROUPS_CLAIM.
 */
export class OidcVerifier {
  private keys: Promise<KeySet> | undefined;
  private failedAt = 0;

  constructor(private readonly config: OidcConfig) {}

  get issuer(): string {
    return this.config.issuer;
  }

  async verify(credential: string): Promise<Principal> {
    const { issuer, audience, groupsClaim } = this.config;
    const { claims } = peekJwt(credential, ASYMMETRIC_ALGORITHMS);
    // Said before any key is fetched: a token of another issuer is never this one's to verify.
    if (claims.iss !== issuer) {
      throw new AuthenticationError(`wrong issuer: the token is from ${String(claims.iss)}, not ${issuer}`);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(credential, await this.keySet(), {
        issuer,
        audience,
        algorithms: [...ASYMMETRIC_ALGORITHMS],
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ["exp", "sub"],
      }));
    } catch (error) {
      throw jwtFailure(error, { issuer, audience });
    }
    return {
      subject: `user:${payload.sub}`,
      issuer,
      local: true,
      groups: groupsOf(payload[groupsClaim]),
      via: "oidc",
    };
  }

  private keySet(): Promise<KeySet> {
    if (this.keys === undefined && Date.now() - this.failedAt < DISCOVERY_RETRY_MS) {
      throw new AuthenticationError(
        `the OIDC issuer ${this.config.issuer} could not be asked for its keys; try again shortly`,
      );
    }
    this.keys ??= this.discover().then(
      (url) => createRemoteJWKSet(new URL(url)),
      (error: unknown) => {
        this.keys = undefined;
        this.failedAt = Date.now();
        throw new AuthenticationError(
          `the OIDC issuer ${this.config.issuer} could not be asked for its keys: ${(error as Error).message}`,
        );
      },
    );
    return this.keys;
  }

  /** The issuer's jwks_uri, from REGISTRY_OIDC_JWKS_URL or its discovery document. */
  private async discover(): Promise<string> {
    if (this.config.jwksUrl) return this.config.jwksUrl;
    const url = `${this.config.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
    const response = await fetch(url, {
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      redirect: "manual",
    });
    if (isRedirectStatus(response.status)) {
      await response.body?.cancel();
      throw new Error(
        redirectRefusal(
          "OIDC discovery",
          url,
          response.status,
          response.headers.get("location") ?? undefined,
        ),
      );
    }
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (document.issuer !== this.config.issuer) {
      throw new Error(`${url} names issuer ${JSON.stringify(document.issuer)}, not ${this.config.issuer}`);
    }
    if (typeof document.jwks_uri !== "string") throw new Error(`${url} has no jwks_uri`);
    return document.jwks_uri;
  }
}

/** The groups claim as group names: a list of strings (or one string); anything else is none. */
function groupsOf(claim: unknown): string[] {
  const list = typeof claim === "string" ? [claim] : Array.isArray(claim) ? claim : [];
  return list
    .filter(
      (group): group is string =>
        typeof group === "string" && group.length > 0 && group.length <= MAX_GROUP_LENGTH,
    )
    .slice(0, MAX_GROUPS);
}
