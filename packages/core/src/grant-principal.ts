import { ErrorCode, RegistryError } from "./errors.ts";
import { checkGrantPrincipal } from "./grant.ts";
import { checkNamespacePath, ROOT_NAMESPACE } from "./names.ts";
import { quote } from "./quote.ts";

/**
 * The issuers a registry can name in its grants (issue 19): itself and its ancestors, whose API
 * tokens may reach it through its parent, and OIDC issuers. A registry's tokens are kept by
 * registry id (`token:admin@registry:<id>`), so a grant survives a rename; they are entered and
 * shown by the registry's namespace path (`token:admin@/`).
 */
export interface Lineage {
  /** This registry's id. */
  readonly id: string;
  /** The OIDC issuer this registry is configured with: its users are named unqualified. */
  readonly oidcIssuer: string | undefined;
  /** The id of the registry at `path`: this one or an ancestor; undefined for any other. */
  idAt(path: string): string | undefined;
  /** The namespace path of this registry or of an ancestor, by id; undefined for any other. */
  pathOf(id: string): string | undefined;
  /** The paths it knows: this registry's, then its ancestors' up to the root. */
  readonly paths: readonly string[];
}

/**
 * The lineage of a registry at `path`, whose parent is at `parentPath` (null: none) and whose
 * ancestors are `ancestors` (ids, the root first): each registry's namespace is one segment below
 * its parent's, so an ancestor's path is the parent's with as many segments fewer.
 */
export function lineageOf(
  self: { id: string; path: string; parentPath: string | null; ancestors: readonly string[] },
  oidcIssuer: string | undefined,
): Lineage {
  const paths = new Map<string, string>([[self.id, self.path]]);
  let path: string | undefined = self.parentPath ?? undefined;
  for (const id of [...self.ancestors].reverse()) {
    if (path === undefined) break;
    paths.set(id, path);
    path = path === ROOT_NAMESPACE ? undefined : path.slice(0, path.lastIndexOf("/")) || ROOT_NAMESPACE;
  }
  const ids = new Map([...paths].map(([id, at]) => [at, id]));
  return {
    id: self.id,
    oidcIssuer,
    idAt: (at) => ids.get(at),
    pathOf: (id) => paths.get(id),
    paths: [...paths.values()],
  };
}

const REGISTRY = "registry:";
/** Where a principal's issuer starts: after its last "@" followed by one of these. */
const QUALIFIER = /@(\/[^@]*|registry:[^@]*|https?:\/\/[^@]*)$/;
const MAX_ISSUER_LENGTH = 512;

/**
 * A grant's principal as entered (`token:ci`, `token:admin@/`, `user:bob@https://idp.example`,
 * `group:devs`), as kept: unqualified for this registry's own (its tokens, its OIDC issuer's
 * users), `token:<name>@registry:<id>` for an ancestor's token, `user:<sub>@<issuer URL>` for a
 * user of another OIDC issuer. INVALID_INPUT naming `field` for what no request can ever be.
 */
export function parseGrantPrincipal(text: string, lineage: Lineage, field: string[]): string {
  const invalid = (why: string) =>
    new RegistryError(ErrorCode.INVALID_INPUT, `principal ${quote(text)} is not valid: ${why}`, field);
  const match = QUALIFIER.exec(text);
  const bare = match ? text.slice(0, match.index) : text;
  const problem = checkGrantPrincipal(bare, field);
  if (problem) throw new RegistryError(problem.code, problem.message, field);
  if (!match) return text;
  const issuer = match[1]!;
  const kind = bare.slice(0, bare.indexOf(":"));
  if (issuer.length > MAX_ISSUER_LENGTH) throw invalid(`its issuer is longer than ${MAX_ISSUER_LENGTH}`);
  // A URL parser drops tabs and newlines: the issuer is kept exactly as entered, and matched so.
  if (/[\s\p{Cc}]/u.test(issuer)) throw invalid("its issuer contains white space or a control character");
  if (kind === "group") {
    throw invalid(
      "a group names no issuer: groups count only from this registry's own API tokens and its OIDC issuer",
    );
  }
  if (kind === "user") {
    if (!/^https?:\/\//.test(issuer))
      throw invalid("a user's issuer is the URL of an OIDC issuer (its tokens' iss)");
    if (!URL.canParse(issuer)) throw invalid(`its issuer ${quote(issuer)} is not a URL`);
    return issuer === lineage.oidcIssuer ? bare : `${bare}@${issuer}`;
  }
  if (!issuer.startsWith("/") && !issuer.startsWith(REGISTRY)) {
    throw invalid(
      'a token\'s issuer is the registry that made it, by namespace path ("token:admin@/"), not a URL',
    );
  }
  const id = issuer.startsWith(REGISTRY) ? registryIdOf(issuer, lineage) : registryAt(issuer, lineage);
  if (id === undefined) {
    throw invalid(
      `a token's issuer is this registry or one of its ancestors, by namespace path (${lineage.paths.join(", ")}): only their tokens reach this registry`,
    );
  }
  return id === lineage.id ? bare : `${bare}@${REGISTRY}${id}`;

  function registryAt(path: string, known: Lineage): string | undefined {
    const bad = checkNamespacePath(path, field);
    if (bad) throw invalid(bad.message);
    return known.idAt(path);
  }
}

function registryIdOf(issuer: string, lineage: Lineage): string | undefined {
  const id = issuer.slice(REGISTRY.length);
  return lineage.pathOf(id) === undefined ? undefined : id;
}

/** A kept principal as people read it: a registry's token by the registry's path when known. */
export function showGrantPrincipal(kept: string, lineage: Lineage): string {
  const at = kept.lastIndexOf(`@${REGISTRY}`);
  if (at < 0) return kept;
  const path = lineage.pathOf(kept.slice(at + 1 + REGISTRY.length));
  return path === undefined ? kept : `${kept.slice(0, at)}@${path}`;
}
