import { ErrorCode, RegistryError } from "./errors.ts";
import { pathOfBelow, roleRank, scopeCovers, type Grant, type Role } from "./grant.ts";
import { grantNameOf, type Principal } from "./principal.ts";
import { quote } from "./quote.ts";

/** One part of what a principal may read: a scope (below the registry's), narrowed to a stream prefix or not. */
export interface VisibleScope {
  scope: string;
  prefix: string | null;
}

/** What a list may show: everything, or the rows one of these covers (none: nothing). */
export type Visibility = "all" | readonly VisibleScope[];

/** What a principal reads of the change log: entries by their namespace, and those of grants ("grant" entries). */
export interface ChangeVisibility {
  entries: Visibility;
  grants: Visibility;
}

/** What a visibility covers: streams and their bindings (a prefix narrows them), or anything else (it does not). */
export type VisibleKind = "stream" | "other";

/**
 * The grant names a principal answers to: its subject with its issuer (unqualified when the issuer
 * is this registry's own: `token:ci`; `token:admin@registry:<id>` for another registry's token),
 * and its groups, only when its issuer is one this registry trusts for groups. A registry's own
 * principal and "anonymous" match no grant.
 */
export function grantNamesOf(principal: Principal): string[] {
  const own = /^(user|token):/.test(principal.subject) ? [grantNameOf(principal)] : [];
  const groups = principal.local ? principal.groups.map((group) => `group:${group}`) : [];
  return [...own, ...groups];
}

/**
 * What one principal may do at one registry (deny by default), from the grants that name it. Paths
 * are below the registry's namespace (`own`, absolute, as of the request): "" is its own.
 *
 * - unrestricted: REGISTRY_AUTH=none (the "anonymous" principal): everything.
 * - parent: a parent registry on its own behalf (its index's feed reads): the change feed and the
 *   documents of entities by key, nothing else. A request a parent forwards for a user is the user's.
 * - grants: reader reads; writer also writes streams and bindings (within its stream prefix);
 *   admin also clusters, settings, children, grants and tokens. A prefix narrows streams and
 *   their bindings only: a prefixed grant gives nothing else.
 */
export class Access {
  private constructor(
    /** This registry's namespace when the request came. */
    readonly own: string,
    private readonly mode: "unrestricted" | "parent" | "grants",
    private readonly grants: readonly Grant[],
    /** The grant names the principal answers to (grantNamesOf). */
    readonly names: readonly string[] = [],
  ) {}

  static unrestricted(own: string): Access {
    return new Access(own, "unrestricted", []);
  }

  /** `grants` may hold others': those that do not name the principal are left out. */
  static of(principal: Principal, grants: readonly Grant[], own: string): Access {
    if (principal.via === "none") return Access.unrestricted(own);
    if (principal.via === "parent" && principal.chain === undefined) return new Access(own, "parent", []);
    const names = grantNamesOf(principal);
    return new Access(
      own,
      "grants",
      grants.filter((grant) => names.includes(grant.principal)),
      names,
    );
  }

  /** Whether the principal has `role` (or a stronger one) at `below`, for the stream `stream` if it is about one. */
  can(role: Role, below: string, stream?: string): boolean {
    if (this.mode !== "grants") return this.mode === "unrestricted";
    return this.grants.some(
      (grant) =>
        roleRank(grant.role) >= roleRank(role) &&
        scopeCovers(grant.scope, below) &&
        (grant.streamPrefix === null || (stream !== undefined && stream.startsWith(grant.streamPrefix))),
    );
  }

  /**
   * Throws FORBIDDEN, naming the role and the namespace needed, unless the principal has `role` at
   * `below` (for `stream` if given). `doing` says what was refused: 'creating stream "x"'.
   */
  require(role: Role, below: string, doing: string, stream?: string): void {
    if (this.can(role, below, stream)) return;
    const namespace = pathOfBelow(this.own, below);
    const which = stream === undefined ? "" : ` covering stream ${quote(stream)}`;
    throw new RegistryError(
      ErrorCode.FORBIDDEN,
      `${doing} needs the ${role} role on namespace ${namespace}: a grant on it or on a namespace above it${which}`,
      [],
      { role, namespace },
    );
  }

  /** Whether a look-up by key may show the object: a reader's, or the parent's copy for its index. */
  readsDocument(below: string, stream?: string): boolean {
    return this.mode === "parent" || this.can("reader", below, stream);
  }

  /** Which rows of `kind` a list shows this principal (a reader's scopes and prefixes). */
  visibility(kind: VisibleKind): Visibility {
    if (this.mode !== "grants") return this.mode === "unrestricted" ? "all" : [];
    const scopes = this.grants
      .filter((grant) => kind === "stream" || grant.streamPrefix === null)
      .map((grant) => ({ scope: grant.scope, prefix: grant.streamPrefix }));
    return narrowest(scopes);
  }

  /**
   * Which entries of the change log this principal reads: of the namespaces it reads (scopes
   * without a prefix), and the entries of grants of the namespaces it administers. The parent, for
   * its index, reads all.
   */
  changes(): ChangeVisibility {
    if (this.mode === "parent") return { entries: "all", grants: "all" };
    return { entries: this.visibility("other"), grants: this.grantsVisible().administers };
  }

  /**
   * Whether the principal reads anything in `below`'s subtree or above it: whether it may know that
   * the namespace is there (a child registry in a list, its index lag).
   */
  knowsOf(below: string): boolean {
    if (this.mode !== "grants") return true;
    return this.grants.some((grant) => scopeCovers(grant.scope, below) || scopeCovers(below, grant.scope));
  }

  /** Admin somewhere here, the parent, or unrestricted: who may see the schema in production. */
  seesSchema(): boolean {
    return this.mode !== "grants" || this.grants.some((grant) => grant.role === "admin");
  }

  /** The scopes this principal administers ("all": every one). */
  adminScopes(): "all" | string[] {
    if (this.mode !== "grants") return this.mode === "unrestricted" ? "all" : [];
    const scopes = this.grants.filter((grant) => grant.role === "admin").map((grant) => grant.scope);
    return scopes.includes("") ? "all" : scopes;
  }

  /** Which grants the principal may list: those of the scopes it administers, and those naming it. */
  grantsVisible(): { administers: Visibility; names: readonly string[] } {
    const admin = this.adminScopes();
    return {
      administers: admin === "all" ? "all" : narrowest(admin.map((scope) => ({ scope, prefix: null }))),
      names: this.names,
    };
  }

  /**
   * No escalation: granting or revoking at `scope` takes the admin role on it (or above it), so an
   * admin hands out at most what it has, where it has it. FORBIDDEN naming `field` otherwise.
   */
  requireGrantor(scope: string, doing: string, field: string[]): void {
    if (this.can("admin", scope)) return;
    const namespace = pathOfBelow(this.own, scope);
    throw new RegistryError(
      ErrorCode.FORBIDDEN,
      `${doing} needs the admin role on namespace ${namespace} or on a namespace above it`,
      field,
      { role: "admin", namespace },
    );
  }
}

/** The pairs without those another covers; "all" when one covers everything. */
function narrowest(scopes: VisibleScope[]): Visibility {
  const covers = (a: VisibleScope, b: VisibleScope) =>
    scopeCovers(a.scope, b.scope) &&
    (a.prefix === null || (b.prefix !== null && b.prefix.startsWith(a.prefix)));
  if (scopes.some((s) => s.scope === "" && s.prefix === null)) return "all";
  return scopes.filter(
    (scope, i) =>
      !scopes.some((other, j) => j !== i && covers(other, scope) && (!covers(scope, other) || j < i)),
  );
}
