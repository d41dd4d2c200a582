import { ErrorCode, RegistryError, userError, type UserError } from "./errors.ts";
import { checkNamespacePath, MAX_NAME_LENGTH, namespacePath, ROOT_NAMESPACE } from "./names.ts";
import { quote } from "./quote.ts";
import { textProblem } from "./text.ts";

/** Roles, weakest first: each can do what those before it can. */
export const ROLES = ["reader", "writer", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Who a grant names: an OIDC subject, a group (OIDC claim or API token's), or an API token. */
export const GRANT_PRINCIPAL_KINDS = ["user", "group", "token"] as const;

/**
 * Who may do what where (issue 11). The scope is kept below the registry's own namespace ("" is its
 * own, "us-reg1/dc1" one below it), so that a registry that is renamed or moves to another parent
 * keeps what it granted; it is shown and entered absolute.
 */
export interface Grant {
  /**
   * "user:<sub>", "group:<name>" or "token:<name>" of this registry; another issuer's as
   * "token:<name>@registry:<id>" or "user:<sub>@<issuer URL>" (grant-principal.ts).
   */
  principal: string;
  role: Role;
  /** The namespace it covers, with every namespace below it, as a path below the registry's. */
  scope: string;
  /** Narrows a reader or writer grant to the streams whose names start with it, and their bindings. */
  streamPrefix: string | null;
}

const MAX_PRINCIPAL_NAME_LENGTH = 256;

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** A role as the API and the DDL take it, in any case; INVALID_INPUT naming `field` otherwise. */
export function parseRole(text: string, field: string[]): Role {
  const role = ROLES.find((r) => r === text.toLowerCase());
  if (role) return role;
  throw new RegistryError(
    ErrorCode.INVALID_INPUT,
    `role ${quote(text)} is not a role; the roles are ${ROLES.join(", ")}`,
    field,
  );
}

/** Checks a grant's principal: "user:<sub>", "group:<name>" or "token:<name>", printable, at most 256 after the colon. */
export function checkGrantPrincipal(principal: string, field: string[]): UserError | undefined {
  const invalid = (why: string) =>
    userError(ErrorCode.INVALID_INPUT, field, `principal ${quote(principal)} is not valid: ${why}`);
  const colon = principal.indexOf(":");
  const kind = principal.slice(0, colon);
  const name = principal.slice(colon + 1);
  if (colon < 0 || !(GRANT_PRINCIPAL_KINDS as readonly string[]).includes(kind)) {
    return invalid(`it must start with ${GRANT_PRINCIPAL_KINDS.map((k) => `"${k}:"`).join(", ")}`);
  }
  if (name.length === 0) return invalid(`the ${kind} after "${kind}:" must not be empty`);
  if (Array.from(name).length > MAX_PRINCIPAL_NAME_LENGTH) {
    return invalid(`the ${kind} has more than ${MAX_PRINCIPAL_NAME_LENGTH} characters`);
  }
  const problem = textProblem(name);
  if (problem) return invalid(problem);
  if (/\p{Cc}/u.test(name)) return invalid("it contains a control character");
  if (name.trim() !== name) return invalid("it starts or ends with white space");
  return undefined;
}

/** Checks a stream prefix: the start of a stream name (its characters), not empty (none means every stream). */
export function checkStreamPrefix(prefix: string, field: string[]): UserError | undefined {
  const invalid = (why: string) =>
    userError(ErrorCode.INVALID_INPUT, field, `streamPrefix ${quote(prefix)} is not valid: ${why}`);
  if (prefix.length === 0) return invalid("it must not be empty; omit it for every stream");
  if (prefix.length > MAX_NAME_LENGTH) return invalid(`it is longer than a stream name (${MAX_NAME_LENGTH})`);
  const bad = Array.from(prefix).findIndex((character) => !/^[a-zA-Z0-9._-]$/.test(character));
  if (bad >= 0) {
    return invalid(
      `it has character ${quote(Array.from(prefix)[bad]!)} at position ${bad + 1}, which no stream name has; allowed are letters, digits, ".", "_" and "-"`,
    );
  }
  return undefined;
}

/**
 * The path of `path` below `own` ("" for `own` itself), or undefined when `path` is outside
 * `own`'s subtree. Both are absolute; segments are compared whole ("/aws" does not hold "/aws2").
 */
export function pathBelow(own: string, path: string): string | undefined {
  if (path === own) return "";
  const prefix = own === ROOT_NAMESPACE ? ROOT_NAMESPACE : `${own}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}

/** The absolute path of `below` ("us-reg1/dc1", or "" for `own` itself) under `own`. */
export function pathOfBelow(own: string, below: string): string {
  return below === "" ? own : below.split("/").reduce((path, segment) => namespacePath(segment, path), own);
}

/** Whether a grant with `scope` covers the namespace `below` (both below the registry's): whole segments. */
export function scopeCovers(scope: string, below: string): boolean {
  return scope === "" || below === scope || below.startsWith(`${scope}/`);
}

/**
 * A scope entered absolute, as kept: its path below `own`. Not a namespace path, or outside `own`'s
 * subtree: INVALID_INPUT naming `field`.
 */
export function scopeOf(own: string, path: string, field: string[]): string {
  const invalid = checkNamespacePath(path, field);
  if (invalid) throw new RegistryError(invalid.code, invalid.message, invalid.field);
  const below = pathBelow(own, path);
  if (below === undefined) {
    throw new RegistryError(
      ErrorCode.INVALID_INPUT,
      `namespace ${path} is outside this registry's namespace ${own}: its grants cover ${own} and the namespaces below it`,
      field,
    );
  }
  return below;
}
