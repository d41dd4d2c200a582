import type { Principal } from "@stream-registry/core";
import { findChildKeys, findParentKeys, type Database, type PublicJwk } from "@stream-registry/store";
import { createLocalJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import { AuthenticationError } from "./authentication-error.ts";
import type { RegistryTokenVerifier as Verifier } from "./authenticator.ts";
import { jwtFailure, peekJwt } from "./jwt-errors.ts";
import { REGISTRY_KEY_ALGORITHMS, REGISTRY_TOKEN_TTL_S } from "./registry-keys.ts";
import type { ReplayCache } from "./replay-cache.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Clock skew allowed between registries (their clocks are expected to be synchronized). */
const CLOCK_TOLERANCE_S = 5;
/** How long the pinned keys read for a request serve the next ones. */
const KEYS_CACHE_MS = 1_000;
/** The most groups a forwarded user may carry. */
const MAX_GROUPS = 256;

export interface RegistryTokenVerifierDeps {
  db: Database;
  /** This registry's id: the audience its tokens must name. */
  registryId: () => string;
  replays: ReplayCache;
  /**
   * Reads the parent's keys again (its answer of itself): called once when a token of the parent
   * names a key id not pinned here, as after the parent rotated its key. Rate-limited by the caller.
   */
  refreshParentKeys: () => Promise<void>;
}

/**
 * Verifies the tokens registries of this registry's tree sign for it (docs/security.md, "Across
 * the tree"): its registered parent's (a user the parent acts for, or the parent on its own), and
 * its registered children's (a child checking its registration). Each is verified with the keys
 * pinned when that registry registered, its issuer must be that registry, its audience this one,
 * it lives at most REGISTRY_TOKEN_TTL_S, and its id (jti) is accepted once.
 */
export class RegistryTokenVerifier implements Verifier {
  private cache = new Map<
    string,
    { keys: PublicJwk[] | null; jwks: KeySet | undefined; role: "parent" | "child"; until: number }
  >();

  constructor(private readonly deps: RegistryTokenVerifierDeps) {}

  async verify(credential: string): Promise<Principal> {
    const { claims } = peekJwt(credential, REGISTRY_KEY_ALGORITHMS);
    const issuer = typeof claims.iss === "string" ? claims.iss : "";
    const id = issuer.slice("registry:".length);
    if (!UUID.test(id)) throw new AuthenticationError(`wrong issuer: ${issuer} is not a registry id`);
    const audience = `registry:${this.deps.registryId()}`;
    let { jwks, role } = await this.keysOf(id);
    let payload: JWTPayload;
    try {
      payload = await verifyWith(credential, jwks, issuer, audience);
    } catch (error) {
      if (!(role === "parent" && error instanceof errors.JWKSNoMatchingKey))
        throw jwtFailure(error, { issuer, audience });
      // The parent signs with a key not pinned yet (it rotated): its keys are read again, once.
      await this.deps.refreshParentKeys().catch(() => {});
      this.cache.delete(id);
      ({ jwks, role } = await this.keysOf(id));
      payload = await verifyWith(credential, jwks, issuer, audience).catch((again: unknown) => {
        throw jwtFailure(again, { issuer, audience });
      });
    }
    if (payload.exp! - payload.iat! > REGISTRY_TOKEN_TTL_S) {
      throw new AuthenticationError(`token lives longer than ${REGISTRY_TOKEN_TTL_S} s`);
    }
    const seen = this.deps.replays.add(payload.jti!, payload.exp! * 1000);
    if (seen === "replayed") throw new AuthenticationError("token replayed: its id (jti) was used before");
    if (seen === "full") throw new AuthenticationError("too many registry tokens at once; try again shortly");
    return principalOf(payload, issuer, id, role);
  }

  /**
   * The pinned keys of the registry `id` (as a key set, kept with them: its imported keys serve
   * every token of that registry for KEYS_CACHE_MS), and whether it is this registry's parent or a
   * child.
   */
  private async keysOf(id: string): Promise<{ jwks: KeySet; role: "parent" | "child" }> {
    const now = Date.now();
    let found = this.cache.get(id);
    if (!found || found.until <= now) {
      const parent = await findParentKeys(this.deps.db.prisma);
      const [keys, role] =
        parent?.parentRegistryId === id
          ? [parent.keys, "parent" as const]
          : [await findChildKeys(this.deps.db.prisma, id), "child" as const];
      const jwks = keys?.length ? createLocalJWKSet({ keys: keys.map((k) => ({ ...k })) }) : undefined;
      found = { keys, jwks, role, until: now + KEYS_CACHE_MS };
      if (this.cache.size > 1_000) this.cache.clear();
      this.cache.set(id, found);
    }
    if (!found.keys) {
      throw new AuthenticationError(
        `wrong issuer: registry:${id} is neither this registry's parent nor one of its child registries`,
      );
    }
    if (!found.jwks) throw new AuthenticationError(`registry:${id} registered no keys here`);
    return { jwks: found.jwks, role: found.role };
  }
}

type KeySet = ReturnType<typeof createLocalJWKSet>;

async function verifyWith(
  credential: string,
  jwks: KeySet,
  issuer: string,
  audience: string,
): Promise<JWTPayload> {
  const { payload } = await jwtVerify(credential, jwks, {
    issuer,
    audience,
    algorithms: [...REGISTRY_KEY_ALGORITHMS],
    clockTolerance: CLOCK_TOLERANCE_S,
    // Issued now, not later: without it a token whose iat is in the future (exp - iat within the
    // TTL) would be accepted at once and stay valid until its far-off exp.
    maxTokenAge: REGISTRY_TOKEN_TTL_S,
    requiredClaims: ["exp", "iat", "jti", "sub"],
  });
  return payload;
}

/**
 * Who the token is for. From the parent: a user it acts for (`act` names the parent; the user's
 * subject and groups), or the parent itself (its subject is its issuer, no groups). From a child:
 * the child itself, nothing else.
 */
function principalOf(payload: JWTPayload, issuer: string, id: string, role: "parent" | "child"): Principal {
  const act = payload.act as { sub?: unknown } | undefined;
  if (role === "child") {
    if (payload.sub !== issuer || act !== undefined) {
      throw new AuthenticationError("a child registry's token is for that registry only (sub = iss, no act)");
    }
    return { subject: issuer, groups: [], via: "child" };
  }
  if (act === undefined) {
    if (payload.sub !== issuer)
      throw new AuthenticationError("a parent's own token has its issuer as subject");
    return { subject: issuer, groups: [], via: "parent" };
  }
  if (act.sub !== issuer) throw new AuthenticationError("the token's actor (act.sub) is not its issuer");
  // A parent acts for users (and tokens); a registry's identity is never passed on as a user's.
  if (payload.sub!.startsWith("registry:") || payload.sub === "enrollment") {
    throw new AuthenticationError(`a parent cannot act for ${payload.sub}`);
  }
  const groups = Array.isArray(payload.groups)
    ? payload.groups.filter((g): g is string => typeof g === "string").slice(0, MAX_GROUPS)
    : [];
  return { subject: payload.sub!, groups, via: "parent", forwardedBy: id };
}
