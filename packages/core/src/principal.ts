/**
 * Who a request is from, as the registry verified it (issue 11): never something a caller says of
 * itself in a header.
 */
export interface Principal {
  /**
   * "user:<sub>" (an OIDC token's subject), "token:<name>" (an API token), "registry:<id>" (a
   * parent registry acting on its own: its index's feed reads, its probes), or "anonymous"
   * (REGISTRY_AUTH=none only).
   */
  subject: string;
  /** Group names (the OIDC groups claim, or the API token's); grants may name them. */
  groups: string[];
  /** How it was verified. */
  via: "oidc" | "token" | "parent" | "none";
  /** For a request a parent forwarded for a user: the parent's registry id. The user is `subject`. */
  forwardedBy?: string;
}

export const ANONYMOUS: Principal = { subject: "anonymous", groups: [], via: "none" };

/** How the change log names who made a change. */
export function actorOf(principal: Principal): string {
  return principal.forwardedBy === undefined
    ? principal.subject
    : `${principal.subject} via registry:${principal.forwardedBy}`;
}
