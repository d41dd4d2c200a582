import { isUuid } from "@stream-registry/core";
import type { Hop, Lineage, Principal } from "@stream-registry/core";
import type { JWTPayload } from "jose";
import { AuthenticationError } from "./authentication-error.ts";

/** The most groups a forwarded user may carry. */
const MAX_GROUPS = 256;
/** The most registries a forwarded request may have come through (graphql/child-calls.ts, MAX_HOPS). */
export const MAX_CHAIN = 16;
const REGISTRY = "registry:";

/** The `act` claim (RFC 8693): the registry acting now, and nested in it the ones that acted before. */
export interface ActClaim {
  sub: string;
  act?: ActClaim;
}

/**
 * The `act` claim of a token this registry (`self`) sends a child for `principal`: itself acting,
 * and within it the registries the request came through before, the parent innermost last.
 */
export function actClaimOf(self: string, principal: Principal): ActClaim {
  let act: ActClaim | undefined;
  for (const hop of principal.chain ?? []) act = { sub: `${REGISTRY}${hop.id}`, ...(act ? { act } : {}) };
  return { sub: `${REGISTRY}${self}`, ...(act ? { act } : {}) };
}

/**
 * Who a token of this registry's parent is for, when the parent acts for someone (issue 19): the
 * principal as the registry it entered the tree at verified it (`sub`, and its issuer `sub_iss`:
 * that registry, or an OIDC issuer), and the registries it came through (`act`, nested). The
 * parent is trusted to say what happened above it, never to speak for this registry: a token of
 * this registry's own is never a forwarded principal, and groups count only when they come from
 * this registry's own OIDC issuer (the identity provider is trusted, not the registry that passed
 * them on).
 */
export function forwardedPrincipal(payload: JWTPayload, parent: string, lineage: Lineage): Principal {
  const subject = payload.sub!;
  // A parent acts for users (and tokens); a registry's identity is never passed on as a user's.
  if (subject.startsWith(REGISTRY) || subject === "enrollment") {
    throw new AuthenticationError(`a parent cannot act for ${subject}`);
  }
  const chain = chainOf(payload.act, parent, lineage);
  const entry = `${REGISTRY}${chain[0]!.id}`;
  // A parent older than issue 19 names no issuer: the principal is then the entry registry's.
  const issuer = typeof payload.sub_iss === "string" && payload.sub_iss !== "" ? payload.sub_iss : entry;
  if (issuer.startsWith(REGISTRY)) {
    if (issuer !== entry) {
      throw new AuthenticationError(
        `the subject's issuer (sub_iss) ${issuer} is not the registry the request entered the tree at (${entry})`,
      );
    }
    return { subject, issuer, local: false, groups: [], via: "parent", chain, ...pathOf(chain[0]!) };
  }
  // Only users have an OIDC issuer: a token "of" this registry's identity provider would be taken
  // for this registry's own token of that name.
  if (!subject.startsWith("user:")) {
    throw new AuthenticationError(`only users have an OIDC issuer; ${subject}'s issuer is a registry`);
  }
  const local = issuer === lineage.oidcIssuer;
  return { subject, issuer, local, groups: local ? groupsOf(payload.groups) : [], via: "parent", chain };
}

/** The registries in `act`, the one the request entered at first and the parent last. */
function chainOf(claim: unknown, parent: string, lineage: Lineage): Hop[] {
  const hops: Hop[] = [];
  let act = claim as { sub?: unknown; act?: unknown } | undefined;
  if (act?.sub !== `${REGISTRY}${parent}`)
    throw new AuthenticationError("the token's actor (act.sub) is not its issuer");
  while (act !== undefined) {
    if (typeof act !== "object" || act === null || typeof act.sub !== "string")
      throw new AuthenticationError("claim act not valid");
    const id = act.sub.slice(REGISTRY.length);
    if (!act.sub.startsWith(REGISTRY) || !isUuid(id))
      throw new AuthenticationError(`claim act not valid: ${act.sub} is not a registry`);
    if (id === lineage.id || hops.some((hop) => hop.id === id))
      throw new AuthenticationError(`claim act not valid: registry:${id} acts twice or is this registry`);
    if (hops.length === MAX_CHAIN)
      throw new AuthenticationError(`claim act not valid: more than ${MAX_CHAIN} registries`);
    const path = lineage.pathOf(id);
    hops.push(path === undefined ? { id } : { id, path });
    act = act.act as typeof act;
  }
  return hops.reverse();
}

function pathOf(hop: Hop): { issuerPath?: string } {
  return hop.path === undefined ? {} : { issuerPath: hop.path };
}

function groupsOf(claim: unknown): string[] {
  return Array.isArray(claim)
    ? claim.filter((g): g is string => typeof g === "string").slice(0, MAX_GROUPS)
    : [];
}
