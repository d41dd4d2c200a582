/**
 * Who a request is from, as the registry verified it (issue 11): never something a caller says of
 * itself in a header.
 */
export interface Principal {
  /**
   * "user:<sub>" (an OIDC token's subject), "token:<name>" (an API token), "registry:<id>" (a
   * parent registry acting on its own: its index's feed reads, its probes; or a child registry
   * checking its registration), "anonymous" (REGISTRY_AUTH=none only), or "enrollment" (a request
   * without a credential that only registers or unregisters a child registry).
   */
  subject: string;
  /** Group names (the OIDC groups claim, or the API token's); grants may name them. */
  groups: string[];
  /**
   * How it was verified: "parent", a token this registry's registered parent signed (for a user it
   * acts for, or on its own); "child", a token one of its registered child registries signed (that
   * child, about its own registration); "enrollment", no credential at all, allowed only for
   * registerChildRegistry and unregisterChildRegistry, which the enrollment token and the child's
   * credential in their input authenticate.
   */
  via: "oidc" | "token" | "parent" | "child" | "enrollment" | "none";
  /** For a request a parent forwarded for a user: the parent's registry id. The user is `subject`. */
  forwardedBy?: string;
}

export const ANONYMOUS: Principal = { subject: "anonymous", groups: [], via: "none" };

/** A request that only registers or unregisters a child, without a credential: it may do nothing else. */
export const ENROLLMENT: Principal = { subject: "enrollment", groups: [], via: "enrollment" };

/** How the change log names who made a change. */
export function actorOf(principal: Principal): string {
  return principal.forwardedBy === undefined
    ? principal.subject
    : `${principal.subject} via registry:${principal.forwardedBy}`;
}
