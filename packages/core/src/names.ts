import { ErrorCode, RegistryError, userError } from "./errors.ts";
import type { UserError } from "./errors.ts";
import { quote } from "./quote.ts";

/** Kafka's topic-name limit; names end up as topic names, so the registry adopts it for all names. */
export const MAX_NAME_LENGTH = 249;

export const ROOT_NAMESPACE = "/";

const NAME_CHARACTER = /^[a-zA-Z0-9._-]$/;

/** Validates a stream, cluster or namespace-segment name against Kafka's topic-name rules. */
export function checkName(name: string, field: string[], what: string): UserError | undefined {
  const invalid = (message: string): UserError => userError(ErrorCode.INVALID_INPUT, field, message);
  if (name.length === 0) return invalid(`${what} must not be empty`);
  // Counted in code points so a name of emoji is reported for its characters, not its UTF-16 length.
  const length = name.length <= MAX_NAME_LENGTH ? name.length : Array.from(name).length;
  if (length > MAX_NAME_LENGTH) {
    return invalid(`${what} is ${length} characters long; the maximum is ${MAX_NAME_LENGTH}`);
  }
  // Kafka refuses these two because they would name the log directory's own entries.
  if (name === "." || name === "..") return invalid(`${what} must not be "." or ".."`);
  let position = 0;
  for (const character of name) {
    position += 1;
    if (!NAME_CHARACTER.test(character)) {
      return invalid(
        `${what} ${quote(name)} has invalid character ${quote(character)} at position ${position}; ` +
          `allowed are letters, digits, ".", "_" and "-"`,
      );
    }
  }
  return undefined;
}

/**
 * A registry's namespace path from its declared segment and its parent's path: none is the root,
 * "/"; a segment alone is "/<name>" (DECLARE DEFAULT NAMESPACE "us-reg1-xyz" gives "/us-reg1-xyz"),
 * below a parent it is the parent's path plus "/<name>" ("/aws/us-reg1-xyz").
 */
export function namespacePath(name: string | null, parentPath: string = ROOT_NAMESPACE): string {
  if (name === null) return ROOT_NAMESPACE;
  return parentPath === ROOT_NAMESPACE ? `${ROOT_NAMESPACE}${name}` : `${parentPath}/${name}`;
}

/** The seed's fully qualified name: namespace path, then cluster, then stream. */
export function formatFqn(namespace: string, cluster: string, stream: string): string {
  return `${fqnPrefix(namespace)}${cluster}/${stream}`;
}

/** How every fully qualified name in `namespace` starts: "/" at the root, "/aws/" below it. */
export function fqnPrefix(namespace: string): string {
  return namespace === ROOT_NAMESPACE ? "/" : `${namespace}/`;
}

export function parseFqn(fqn: string): { namespace: string; cluster: string; stream: string } {
  const field = ["fqn"];
  const fail = (reason: string): RegistryError =>
    new RegistryError(ErrorCode.INVALID_INPUT, `fqn ${quote(fqn)} is not valid: ${reason}`, field);
  if (!fqn.startsWith("/")) throw fail(`must start with "/"`);
  const segments = fqn.slice(1).split("/");
  const stream = segments.pop();
  const cluster = segments.pop();
  if (stream === undefined || cluster === undefined) {
    throw fail(`must name at least a cluster and a stream, as in "/cluster001/widgets_v0"`);
  }
  const problem =
    segments.map((segment, i) => checkName(segment, field, `namespace segment ${i + 1}`)).find(Boolean) ??
    checkName(cluster, field, "cluster name") ??
    checkName(stream, field, "stream name");
  if (problem) throw fail(problem.message);
  return { namespace: ROOT_NAMESPACE + segments.join("/"), cluster, stream };
}

/** Validates a namespace path: "/" (the root) or "/seg(/seg)*". */
export function checkNamespacePath(path: string, field: string[]): UserError | undefined {
  const invalid = (reason: string): UserError =>
    userError(ErrorCode.INVALID_INPUT, field, `namespace ${quote(path)} is not valid: ${reason}`);
  if (path === ROOT_NAMESPACE) return undefined;
  if (path.length === 0) return invalid(`must not be empty; the root namespace is "/"`);
  if (!path.startsWith("/")) return invalid(`must start with "/"`);
  if (path.endsWith("/")) return invalid(`must not end with "/"`);
  const segments = path.slice(1).split("/");
  for (const [i, segment] of segments.entries()) {
    const problem = checkName(segment, field, `namespace segment ${i + 1}`);
    if (problem) return invalid(problem.message);
  }
  return undefined;
}
