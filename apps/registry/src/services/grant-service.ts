import {
  Access,
  checkPageSize,
  checkStreamPrefix,
  decodeCursor,
  encodeCursor,
  ErrorCode,
  grantNamesOf,
  parseGrantPrincipal,
  parseRole,
  pathOfBelow,
  RegistryError,
  ROLES,
  scopeOf,
  showGrantPrincipal,
  userError,
  type Grant,
  type Lineage,
  type Principal,
  type Role,
  type UserError,
} from "@stream-registry/core";
import {
  countGrants,
  createGrant,
  deleteGrant,
  findGrantsNamed,
  listGrants,
  type GrantPosition,
  type StoredGrant,
} from "@stream-registry/store";
import type { Page, PageArgs } from "./page.ts";
import type { Caller, ServiceDeps } from "./deps.ts";
import { collect, pushIf, throwIfAny, UserErrors } from "./user-errors.ts";

/** How long the grants read for a principal serve its next requests (see accessOf). */
const GRANTS_CACHE_MS = 5_000;
/** The principals whose grants are kept at most: more (a flood of distinct ones) empties the cache. */
const GRANTS_CACHE_SIZE = 10_000;

/** GRANT and REVOKE: who gets or loses what, where (scope absolute, as entered). */
export interface GrantInput {
  principal: string;
  role: string;
  /** The namespace it covers (absolute); omitted: this registry's. */
  scope?: string | null;
  streamPrefix?: string | null;
}

export interface GrantListFilter {
  principal?: string | null;
  /** The grants that apply to this namespace (absolute) or to a namespace below it. */
  namespace?: string | null;
}

/**
 * Grants (issue 11): what each request may do (`accessOf`), and their management, for admins of
 * the scope they grant in (no escalation).
 */
export class GrantService {
  /** The grants read for a set of names, for GRANTS_CACHE_MS; emptied by every GRANT and REVOKE here. */
  private readonly cache = new Map<string, { grants: Promise<Grant[]>; until: number }>();

  constructor(
    private readonly deps: Pick<ServiceDeps, "db" | "namespace">,
    /** This registry, its ancestors and its OIDC issuer: how a grant's principal is entered and shown. */
    private readonly lineage: () => Lineage,
  ) {}

  /** A kept principal as people read it: `token:admin@/` for the root's token (issue 19). */
  shown(principal: string): string {
    return showGrantPrincipal(principal, this.lineage());
  }

  /**
   * What `principal` may do here now: its grants and its groups', read once per request, and kept
   * for the next requests of the same names for GRANTS_CACHE_MS. A GRANT or REVOKE through this
   * process counts from the next request on; one through another process sharing a PostgreSQL
   * database within that time (as a revoked API token).
   */
  async accessOf(principal: Principal, own: string, now = Date.now()): Promise<Access> {
    const names = grantNamesOf(principal);
    if (names.length === 0) return Access.of(principal, [], own);
    const key = JSON.stringify(names);
    let kept = this.cache.get(key);
    if (!kept || kept.until <= now) {
      if (this.cache.size >= GRANTS_CACHE_SIZE) this.cache.clear();
      const grants = findGrantsNamed(this.deps.db.prisma, names);
      kept = { grants, until: now + GRANTS_CACHE_MS };
      this.cache.set(key, kept);
      // A failed read is not kept: the next request asks again.
      grants.catch(() => this.cache.get(key) === kept && this.cache.delete(key));
    }
    return Access.of(principal, await kept.grants, own);
  }

  /** GRANT: `created` false when the principal had that grant already. */
  async grant(input: GrantInput, caller: Caller): Promise<{ grant: StoredGrant; created: boolean }> {
    const grant = this.checked(input, caller, "granting");
    try {
      return await createGrant(this.deps.db.prisma, grant, this.log(grant, caller));
    } finally {
      this.cache.clear();
    }
  }

  /** REVOKE: the grant as it was. None such: NOT_FOUND; the last admin grant here: IN_USE. */
  async revoke(input: GrantInput, caller: Caller): Promise<StoredGrant> {
    const grant = this.checked(input, caller, "revoking");
    const gone = await deleteGrant(this.deps.db.prisma, grant, this.log(grant, caller)).finally(() =>
      this.cache.clear(),
    );
    if (gone === "last admin") {
      throw new UserErrors([
        userError(
          ErrorCode.IN_USE,
          ["input", "role"],
          `${this.shown(grant.principal)} has the last admin grant on ${this.deps.namespace}: grant admin on it to another principal first, or no one could grant anything here again`,
        ),
      ]);
    }
    if (!gone) {
      throw new UserErrors([
        userError(ErrorCode.NOT_FOUND, ["input", "principal"], `${this.describe(grant)} does not exist`),
      ]);
    }
    return gone;
  }

  /** SHOW GRANTS: those of the scopes the caller administers, and those naming the caller. */
  async list(
    filter: GrantListFilter | null | undefined,
    args: PageArgs,
    access: Access,
  ): Promise<Page<StoredGrant>> {
    const take = checkPageSize(args.first, ["first"]);
    const where = {
      principal:
        filter?.principal === null || filter?.principal === undefined
          ? undefined
          : parseGrantPrincipal(filter.principal, this.lineage(), ["filter", "principal"]),
      namespace:
        filter?.namespace === null || filter?.namespace === undefined
          ? undefined
          : scopeOf(this.deps.namespace, filter.namespace, ["filter", "namespace"]),
    };
    const after = args.after ? positionOf(args.after) : undefined;
    const visible = access.grantsVisible();
    const rows = await listGrants(this.deps.db.prisma, where, visible, { after, limit: take + 1 });
    return {
      items: rows.slice(0, take).map((node) => ({
        node,
        cursor: encodeCursor("grants", {
          s: node.scope,
          p: node.principal,
          r: node.role,
          x: node.streamPrefix ?? "",
        }),
      })),
      hasNextPage: rows.length > take,
      hasPreviousPage: after !== undefined,
      totalCount: () => countGrants(this.deps.db.prisma, where, visible),
    };
  }

  /** The grant an input names, each field checked; then whether the caller may grant there. */
  private checked(input: GrantInput, caller: Caller, doing: "granting" | "revoking"): Grant {
    const errors: UserError[] = [];
    const principal = collect(errors, () =>
      parseGrantPrincipal(input.principal, this.lineage(), ["input", "principal"]),
    );
    const role = collect(errors, () => parseRole(input.role, ["input", "role"]));
    const scope = collect(errors, () =>
      scopeOf(this.deps.namespace, input.scope ?? this.deps.namespace, ["input", "scope"]),
    );
    const streamPrefix = input.streamPrefix ?? null;
    if (streamPrefix !== null) {
      pushIf(errors, checkStreamPrefix(streamPrefix, ["input", "streamPrefix"]));
      if (role === "admin") {
        errors.push(
          userError(
            ErrorCode.INVALID_INPUT,
            ["input", "streamPrefix"],
            "a stream prefix narrows reader and writer grants; an admin grant covers all of its namespace",
          ),
        );
      }
    }
    throwIfAny(errors);
    const grant = { principal: principal!, role: role!, scope: scope!, streamPrefix };
    caller.access.requireGrantor(grant.scope, `${doing} ${this.describe(grant)}`, ["input", "scope"]);
    return grant;
  }

  private log(grant: Grant, caller: Caller) {
    return {
      actor: caller.actor,
      scopePath: pathOfBelow(this.deps.namespace, grant.scope),
      principal: this.shown(grant.principal),
    };
  }

  private describe(grant: Grant): string {
    const streams = grant.streamPrefix === null ? "" : ` for streams starting with "${grant.streamPrefix}"`;
    return `${grant.role} on ${pathOfBelow(this.deps.namespace, grant.scope)}${streams} to ${this.shown(grant.principal)}`;
  }
}

function positionOf(cursor: string): GrantPosition {
  const value = decodeCursor(cursor, "grants");
  const { s, p, r, x } = value;
  const fields = Object.keys(value).length === 4;
  if (!fields || typeof s !== "string" || typeof p !== "string" || typeof x !== "string" || !isRole(r)) {
    throw new RegistryError(ErrorCode.INVALID_INPUT, "after is not a cursor of this list", ["after"]);
  }
  return [s, p, r, x];
}

function isRole(value: unknown): value is Role {
  return (ROLES as readonly unknown[]).includes(value);
}
