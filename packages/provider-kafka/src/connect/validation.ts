import type { ConfigIssue } from "@stream-registry/provider-api";

/** `PUT /connector-plugins/{class}/config/validate`: 200 even when invalid, the errors per key. */
export interface ConnectValidation {
  error_count?: number;
  configs?: { value?: { name?: string; errors?: string[] } }[];
}

/**
 * Connect's field errors as issues on the user's map and key, e.g.
 * ["postgres-source", "database.hostname"], each message passed through `redact` (Connect's
 * messages may quote a value).
 */
export function validationIssues(
  validation: ConnectValidation,
  map: string,
  redact: (text: string) => string,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const { value } of validation.configs ?? []) {
    const errors = value?.errors ?? [];
    if (value?.name === undefined || errors.length === 0) continue;
    issues.push({ field: [map, value.name], message: redact(errors.join("; ")) });
  }
  return issues;
}

/**
 * Why Connect cannot hold a connector of this name, as an issue on ["name"]: Connect refuses an
 * empty name and control characters and trims spaces, and a "/" cannot be a REST path segment.
 */
export function connectNameIssue(name: string, connector: string): ConfigIssue | undefined {
  const why =
    name.trim() === ""
      ? "is empty"
      : name !== name.trim()
        ? "starts or ends with a space (Connect trims names)"
        : /\p{Cc}/u.test(name)
          ? "holds a control character"
          : /[/\\]/.test(name) || name === "." || name === ".."
            ? 'holds "/" or "\\" or is a dot path (Connect\'s REST paths cannot name it)'
            : undefined;
  return why
    ? {
        field: ["name"],
        message: `Kafka Connect cannot hold connector ${JSON.stringify(connector)} of ${JSON.stringify(name)}: the name ${why}`,
      }
    : undefined;
}
