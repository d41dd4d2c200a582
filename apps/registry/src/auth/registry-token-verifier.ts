import { isUuid } from "@stream-registry/core";
import { createPublicKey } from "node:crypto";
import type { Lineage, Principal } from "@stream-registry/core";
import {
  findChildKeys,
  findParentKeys,
  isChildSuspended,
  type Database,
  type PublicJwk,
} from "@stream-registry/store";
import { createVerifier, TokenError } from "fast-jwt";
import type { JWTPayload } from "jose";
import { AuthenticationError } from "./authentication-error.ts";
import type { RegistryTokenVerifier as Verifier } from "./authenticator.ts";
import { forwardedPrincipal } from "./forwarded-principal.ts";
import { peekJwt } from "./jwt-errors.ts";
import { REGISTRY_KEY_ALGORITHMS, REGISTRY_TOKEN_TTL_S } from "./registry-keys.ts";
import type { ReplayCache } from "./replay-cache.ts";

/** Clock skew allowed between registries (their clocks are expected to be synchronized). */
const CLOCK_TOLERANCE_S = 5;
/**
 * How long the pinned keys read for a request serve the next ones. Only keys found are kept: a
 * registry that has just declared its parent is called by it (its index follower) before its own
 * link is committed, and a refusal kept for a second refused the parent's next calls too.
 */
const KEYS_CACHE_MS = 1_000;
/** The claims a registry token must carry. */
const REQUIRED_CLAIMS = ["exp", "iat", "jti", "sub"] as const;

export interface RegistryTokenVerifierDeps {
  db: Database;
  /** This registry's id: the audience its tokens must name. */
  registryId: () => string;
  /** This registry, its ancestors and its OIDC issuer, as they are now: who a forwarded principal is. */
  lineage: () => Lineage;
  replays: ReplayCache;
  /**
   * Reads the parent's keys again (its answer of itself): called once when a token of the parent
   * names a key id not pinned here, as after the parent rotated its key. Rate-limited by the caller.
   */
  refreshParentKeys: () => Promise<void>;
}

/** Checks a token's signature with one key, and its times (exp, nbf, iat's age); returns its claims. */
type SignatureCheck = (token: string) => JWTPayload;

/** A registry's pinned keys, as signature checks by key id, and its place relative to this one. */
interface Pinned {
  role: "parent" | "child";
  checks: Map<string, SignatureCheck>;
}

/**
 * Verifies the tokens registries of this registry's tree sign for it (docs/security.md, "Across
 * the tree"): its registered parent's (a user the parent acts for, or the parent on its own), and
 * its registered children's (a child checking its registration). Each is verified with the key
 * its `kid` names among those pinned when that registry registered; its issuer must be that
 * registry, its audience this one, it lives at most REGISTRY_TOKEN_TTL_S, and its id (jti) is
 * accepted once. Every forwarded request carries such a token: fast-jwt checks it synchronously
 * with node:crypto (docs/architecture.md, "Tokens between registries", says why not jose here).
 */
export class RegistryTokenVerifier implements Verifier {
  /** The pinned keys of this registry's parent and children, by registry id. */
  private cache = new Map<string, { pinned: Pinned; until: number }>();

  constructor(private readonly deps: RegistryTokenVerifierDeps) {}

  async verify(credential: string): Promise<Principal> {
    const { header, claims } = peekJwt(credential, REGISTRY_KEY_ALGORITHMS);
    const issuer = typeof claims.iss === "string" ? claims.iss : "";
    const id = issuer.slice("registry:".length);
    if (!isUuid(id)) throw new AuthenticationError(`wrong issuer: ${issuer} is not a registry id`);
    const kid = typeof header.kid === "string" ? header.kid : "";
    let pinned = await this.pinnedKeys(id);
    let check = pinned.checks.get(kid);
    if (!check && pinned.role === "parent") {
      // The parent signs with a key not pinned yet (it rotated): its keys are read again, once.
      await this.deps.refreshParentKeys().catch(() => {});
      this.cache.delete(id);
      pinned = await this.pinnedKeys(id);
      check = pinned.checks.get(kid);
    }
    if (!check) throw new AuthenticationError(`no key of ${issuer} matches the token's key id`);
    let payload: JWTPayload;
    try {
      payload = check(credential);
    } catch (error) {
      throw signatureFailure(error);
    }
    checkClaims(payload, issuer, `registry:${this.deps.registryId()}`);
    const seen = this.deps.replays.add(payload.jti!, payload.exp! * 1000);
    if (seen === "replayed") throw new AuthenticationError("token replayed: its id (jti) was used before");
    if (seen === "full") throw new AuthenticationError("too many registry tokens at once; try again shortly");
    return principalOf(payload, issuer, id, pinned.role, this.deps.lineage);
  }

  /**
   * The pinned keys of the registry `id` (as read for one request, they serve every token of that
   * registry for KEYS_CACHE_MS), and whether it is this registry's parent or a child.
   */
  private async pinnedKeys(id: string): Promise<Pinned> {
    const now = Date.now();
    let found = this.cache.get(id);
    if (!found || found.until <= now) {
      const parent = await findParentKeys(this.deps.db.prisma);
      const [keys, role] =
        parent?.parentRegistryId === id
          ? [parent.keys, "parent" as const]
          : [await findChildKeys(this.deps.db.prisma, id), "child" as const];
      if (!keys) {
        throw new AuthenticationError(
          `wrong issuer: registry:${id} is neither this registry's parent nor one of its child registries`,
        );
      }
      // An admin here suspended it (SUSPEND CHILD REGISTRY): refused until it is resumed.
      if (role === "child" && (await isChildSuspended(this.deps.db.prisma, id)))
        throw new AuthenticationError(`registry:${id} is a child registry suspended here`);
      found = { pinned: { role, checks: signatureChecks(keys) }, until: now + KEYS_CACHE_MS };
      if (this.cache.size > 1_000) this.cache.clear();
      this.cache.set(id, found);
    }
    if (found.pinned.checks.size === 0)
      throw new AuthenticationError(`registry:${id} registered no keys here`);
    return found.pinned;
  }
}

/** A signature check for each pinned Ed25519 key, by key id; a key that cannot be read is left out. */
function signatureChecks(keys: PublicJwk[]): Map<string, SignatureCheck> {
  const checks = new Map<string, SignatureCheck>();
  for (const { kty, crv, x, kid } of keys) {
    let pem: string;
    try {
      pem = createPublicKey({ key: { kty, crv, x }, format: "jwk" })
        .export({ format: "pem", type: "spki" })
        .toString();
    } catch {
      continue;
    }
    const check: SignatureCheck = createVerifier({
      key: pem,
      algorithms: [...REGISTRY_KEY_ALGORITHMS],
      clockTolerance: CLOCK_TOLERANCE_S * 1000,
      // Issued at most a token's lifetime ago (fast-jwt adds no tolerance to this one).
      maxAge: (REGISTRY_TOKEN_TTL_S + CLOCK_TOLERANCE_S) * 1000,
      // Each token is used once (the replay cache): keeping verified ones would only cost memory.
      cache: false,
    });
    checks.set(kid, check);
  }
  return checks;
}

/** Why fast-jwt refused a token (its signature or times), as the reason a request is refused. */
function signatureFailure(error: unknown): AuthenticationError {
  if (!(error instanceof TokenError)) throw error;
  switch (error.code) {
    case TokenError.codes.expired:
      return new AuthenticationError("token expired");
    case TokenError.codes.inactive:
      return new AuthenticationError("token not valid yet");
    case TokenError.codes.invalidSignature:
    case TokenError.codes.missingSignature:
      return new AuthenticationError("bad signature");
    case TokenError.codes.invalidAlgorithm:
      return new AuthenticationError("algorithm not allowed");
    default:
      return new AuthenticationError(`malformed token: ${error.message}`);
  }
}

/**
 * The claims fast-jwt leaves to its caller: those required, present and of their types; the
 * issuer and audience; an issue time not in the future (such a token would stay valid until its
 * far-off exp); a lifetime of at most REGISTRY_TOKEN_TTL_S.
 */
function checkClaims(payload: JWTPayload, issuer: string, audience: string): void {
  for (const claim of REQUIRED_CLAIMS) {
    if (payload[claim] === undefined) throw new AuthenticationError(`claim ${claim} missing`);
  }
  for (const claim of ["sub", "jti"] as const) {
    if (typeof payload[claim] !== "string") throw new AuthenticationError(`claim ${claim} not valid`);
  }
  for (const claim of ["iat", "exp"] as const) {
    if (typeof payload[claim] !== "number") throw new AuthenticationError(`claim ${claim} not valid`);
  }
  if (payload.iss !== issuer) throw new AuthenticationError(`wrong issuer: the token is not from ${issuer}`);
  const audiences: unknown[] = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.includes(audience)) {
    throw new AuthenticationError(`wrong audience: the token is not for ${audience}`);
  }
  if (payload.iat! > Date.now() / 1000 + CLOCK_TOLERANCE_S)
    throw new AuthenticationError("token not valid yet");
  if (payload.exp! - payload.iat! > REGISTRY_TOKEN_TTL_S) {
    throw new AuthenticationError(`token lives longer than ${REGISTRY_TOKEN_TTL_S} s`);
  }
}

/**
 * Who the token is for. From the parent: someone it acts for (`act` names the parent:
 * forwarded-principal.ts), or the parent itself (its subject is its issuer, no groups). From a
 * child: the child itself, nothing else.
 */
function principalOf(
  payload: JWTPayload,
  issuer: string,
  id: string,
  role: "parent" | "child",
  lineage: () => Lineage,
): Principal {
  const act = payload.act as { sub?: unknown } | undefined;
  if (role === "child") {
    if (payload.sub !== issuer || act !== undefined) {
      throw new AuthenticationError("a child registry's token is for that registry only (sub = iss, no act)");
    }
    return { subject: issuer, issuer, local: false, groups: [], via: "child" };
  }
  if (act === undefined) {
    if (payload.sub !== issuer)
      throw new AuthenticationError("a parent's own token has its issuer as subject");
    return { subject: issuer, issuer, local: false, groups: [], via: "parent" };
  }
  return forwardedPrincipal(payload, id, lineage());
}
