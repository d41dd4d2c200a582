import { redirectRefusal } from "@stream-registry/core";
import { SchemaManagerError, schemaErrorReasonOf, schemaRefused } from "@stream-registry/provider-api";
import { SCHEMA_REGISTRY_MAP } from "./schema-registry-config.ts";

/** Confluent's error body: `{error_code, message}`. */
interface ConfluentErrorBody {
  error_code?: unknown;
  message?: unknown;
}

/**
 * The SchemaManagerError for an external registry's error answer. A refusal (a code provider-api's
 * table knows: 40401, 409, 42201, ...) carries its reason and is not retriable; the registry's own
 * failure (5xx, 50001-50003) and its rate limit (429) are retriable; a refused credential (401,
 * 403) or any other answer is not, and names the config key to fix.
 */
export function schemaErrorOfAnswer(status: number, body: unknown, where: string): SchemaManagerError {
  const { error_code: code, message: text } = (
    typeof body === "object" && body !== null ? body : {}
  ) as ConfluentErrorBody;
  const message =
    typeof text === "string"
      ? text
      : typeof body === "string" && body
        ? body.slice(0, 200)
        : `HTTP ${status}`;
  const reason = typeof code === "number" ? schemaErrorReasonOf(code) : undefined;
  if (reason !== undefined) {
    // A 409's message lists the incompatibilities; Confluent gives no list of its own.
    return schemaRefused(reason, message, reason === "INCOMPATIBLE" ? [message] : []);
  }
  const said = `schema registry ${where} answered ${status}${typeof code === "number" ? ` (${code})` : ""}: ${message}`;
  if (status >= 500 || status === 429 || status === 408) {
    return new SchemaManagerError(said, { retriable: true });
  }
  if (status === 401 || status === 403) {
    return new SchemaManagerError(said, {
      retriable: false,
      issues: [
        {
          field: [SCHEMA_REGISTRY_MAP, "password"],
          message: `the schema registry refused the credentials: ${message}`,
        },
      ],
    });
  }
  return new SchemaManagerError(said, {
    retriable: false,
    issues: [{ field: [SCHEMA_REGISTRY_MAP, "url"], message: `not a Confluent-compatible answer: ${said}` }],
  });
}

/** A registry that could not be reached (refused, reset, timed out, name not resolved): retriable. */
export function schemaRegistryUnreachable(error: unknown, where: string): SchemaManagerError {
  const why = error instanceof Error ? error.message : String(error);
  return new SchemaManagerError(`schema registry ${where} unreachable: ${why}`, {
    retriable: true,
    cause: error,
  });
}

/** An answer of the right status but not of the shape the protocol gives: the URL is not a schema registry. */
export function unexpectedAnswer(where: string, body: unknown): SchemaManagerError {
  const shown = JSON.stringify(body)?.slice(0, 200) ?? String(body);
  return new SchemaManagerError(`schema registry ${where} answered ${shown}, not what its protocol answers`, {
    retriable: false,
    issues: [{ field: [SCHEMA_REGISTRY_MAP, "url"], message: "not a Confluent-compatible schema registry" }],
  });
}

/**
 * A registry that answered a redirect: not followed (it would go where the allow-list did not
 * look), and not retried: the configured URL is to be fixed.
 */
export function schemaRegistryRedirected(
  url: string,
  status: number,
  location: string | null,
): SchemaManagerError {
  const message = redirectRefusal("schema registry", url, status, location ?? undefined);
  return new SchemaManagerError(message, {
    retriable: false,
    issues: [{ field: [SCHEMA_REGISTRY_MAP, "url"], message }],
  });
}
