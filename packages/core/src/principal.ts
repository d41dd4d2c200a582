/**
 * Who a request is from, as the registry verified it (issue 11): never something a caller says of
 * itself in a header. A principal is (issuer, subject) (issue 19): `token:admin` of the root and
 * `token:admin` of /aws/us are two principals, and a grant names one of them.
 */
export interface Principal {
  /**
   * "user:<sub>" (an OIDC token's subject), "token:<name>" (an API token), "registry:<id>" (a
   * parent registry acting on its own: its index's feed reads, its probes; or a child registry
   * checking its registration), "anonymous" (REGISTRY_AUTH=none only), or "enrollment" (a request
   * without a credential that only registers or unregisters a child registry).
   */
  subject: string;
  /**
   * Who vouches for `subject`: "registry:<id>" for a registry's API tokens (the registry that made
   * and verified them) and for a registry itself; the OIDC issuer's URL (its `iss`) for a user;
   * "" for "anonymous" and "enrollment".
   */
  issuer: string;
  /**
   * Whether `issuer` is one this registry trusts as its own: this registry (its API tokens) or its
   * configured OIDC issuer. Grants name such a principal unqualified (`token:ci`, `user:alice`),
   * and only such a principal carries groups.
   */
  local: boolean;
  /**
   * Group names, from a source this registry trusts for groups (its API tokens, its OIDC issuer):
   * empty for everyone else, whatever a parent forwarded. Grants may name them.
   */
  groups: string[];
  /**
   * How it was verified: "parent", a token this registry's registered parent signed (for a user it
   * acts for, or on its own); "child", a token one of its registered child registries signed (that
   * child, about its own registration); "enrollment", no credential at all, allowed only for
   * registerChildRegistry and unregisterChildRegistry, which the enrollment token and the child's
   * credential in their input authenticate.
   */
  via: "oidc" | "token" | "parent" | "child" | "enrollment" | "none";
  /**
   * For a request a parent forwarded for a principal: the registries it came through, the one it
   * entered the tree at (which verified it) first, this registry's parent last.
   */
  chain?: readonly Hop[];
  /** How people read `issuer` when it is a registry this one knows: its namespace path ("/"). */
  issuerPath?: string;
}

/** A registry a forwarded request came through: its id, and its namespace path when this registry knows it. */
export interface Hop {
  id: string;
  path?: string;
}

export const ANONYMOUS: Principal = {
  subject: "anonymous",
  issuer: "",
  local: true,
  groups: [],
  via: "none",
};

/** A request that only registers or unregisters a child, without a credential: it may do nothing else. */
export const ENROLLMENT: Principal = {
  subject: "enrollment",
  issuer: "",
  local: true,
  groups: [],
  via: "enrollment",
};

/**
 * How grants name a principal, as they are kept: unqualified for this registry's own
 * (`token:ci`, `user:alice`), `<subject>@<issuer>` for any other (`token:admin@registry:<id>`,
 * `user:bob@https://login.other.example`).
 */
export function grantNameOf(principal: Pick<Principal, "subject" | "issuer" | "local">): string {
  return principal.local ? principal.subject : `${principal.subject}@${principal.issuer}`;
}

/**
 * How the change log names who made a change: the principal, qualified unless it is this
 * registry's own (`token:admin@/`), and the registries that passed it on after the one that
 * verified it (`token:admin@/ via /aws`, `user:alice via /, /aws`).
 */
export function actorOf(principal: Principal): string {
  const name = principal.local
    ? principal.subject
    : `${principal.subject}@${principal.issuerPath ?? principal.issuer}`;
  const hops = (principal.chain ?? []).filter((hop) => `registry:${hop.id}` !== principal.issuer);
  if (hops.length === 0) return name;
  return `${name} via ${hops.map((hop) => hop.path ?? `registry:${hop.id}`).join(", ")}`;
}
