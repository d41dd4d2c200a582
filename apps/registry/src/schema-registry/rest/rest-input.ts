import {
  COMPATIBILITY_LEVELS,
  isCompatibilityLevel,
  isSchemaMode,
  isSchemaType,
  SCHEMA_MODES,
  SCHEMA_TYPES,
  type CompatibilityLevel,
  type SchemaDependency,
  type SchemaMode,
} from "@stream-registry/core";
import { schemaRefused, type SchemaInput, type VersionSelector } from "@stream-registry/provider-api";
import type { ImportedAs } from "../schema-registrations.ts";
import { isProtocolInt, MAX_VERSION } from "../schema-input.ts";

/**
 * What the REST API takes from a request, checked field by field: a refusal names the field and
 * the rule, with Confluent's code for that field (42201 schema, 42202 version, 42203
 * compatibility, 42204 mode; 422 for the rest of a body's shape).
 */

type Body = Record<string, unknown>;

/** The body as an object: 422 when it is anything else (or missing). */
function object(body: unknown, what: string): Body {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw schemaRefused("INVALID_INPUT", `The request body must be a JSON object ${what}`);
  }
  return body as Body;
}

/** A field, where null counts as absent (as Confluent's JSON binding takes it). */
function field(body: Body, name: string): unknown {
  return Object.hasOwn(body, name) ? (body[name] ?? undefined) : undefined;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? `the string ${JSON.stringify(value).slice(0, 80)}` : `a ${typeof value}`;
}

/** POST /subjects/{s}/versions, POST /subjects/{s} and /compatibility: `{schema, schemaType?, references?}` (+ id and version to import). */
export function schemaBody(body: unknown): { input: SchemaInput; imported: ImportedAs } {
  const fields = object(body, 'with a field "schema"');
  const schema = field(fields, "schema");
  if (typeof schema !== "string") {
    throw schemaRefused(
      "INVALID_SCHEMA",
      `Field "schema" is required: the schema's text as a string, not ${describe(schema)}`,
    );
  }
  const schemaType = field(fields, "schemaType");
  if (schemaType !== undefined && !isSchemaType(schemaType)) {
    throw schemaRefused(
      "INVALID_SCHEMA",
      `Field "schemaType" must be one of ${SCHEMA_TYPES.join(", ")}, not ${describe(schemaType)}`,
    );
  }
  const id = field(fields, "id");
  if (id !== undefined && !isProtocolInt(id)) {
    throw schemaRefused(
      "INVALID_INPUT",
      `Field "id" must be an integer from 1 to ${MAX_VERSION}, not ${describe(id)}`,
    );
  }
  const version = field(fields, "version");
  if (version !== undefined && !isProtocolInt(version)) {
    throw schemaRefused(
      "INVALID_VERSION",
      `Field "version" must be an integer from 1 to ${MAX_VERSION}, not ${describe(version)}`,
    );
  }
  return {
    input: {
      schema,
      ...(schemaType !== undefined && { schemaType }),
      references: references(field(fields, "references")),
    },
    imported: { id, version },
  };
}

function references(value: unknown): SchemaDependency[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw schemaRefused("INVALID_SCHEMA", `Field "references" must be an array, not ${describe(value)}`);
  return value.map((item: unknown, i) => {
    const where = `references[${i}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      throw schemaRefused(
        "INVALID_SCHEMA",
        `Field "${where}" must be an object {name, subject, version}, not ${describe(item)}`,
      );
    }
    const { name, subject, version } = item as Body;
    if (typeof name !== "string")
      throw schemaRefused("INVALID_SCHEMA", `Field "${where}.name" must be a string, not ${describe(name)}`);
    if (typeof subject !== "string")
      throw schemaRefused(
        "INVALID_SCHEMA",
        `Field "${where}.subject" must be a string, not ${describe(subject)}`,
      );
    if (!isProtocolInt(version)) {
      throw schemaRefused(
        "INVALID_SCHEMA",
        `Field "${where}.version" must be an integer from 1 to ${MAX_VERSION}, not ${describe(version)}`,
      );
    }
    return { name, subject, version };
  });
}

/** PUT /config: `{compatibility}`. */
export function compatibilityBody(body: unknown): CompatibilityLevel {
  const level = field(object(body, 'with a field "compatibility"'), "compatibility");
  if (!isCompatibilityLevel(level)) {
    throw schemaRefused(
      "INVALID_COMPATIBILITY",
      `Invalid compatibility level: field "compatibility" must be one of ${COMPATIBILITY_LEVELS.join(", ")}, not ${describe(level)}`,
    );
  }
  return level;
}

/** PUT /mode: `{mode}`. */
export function modeBody(body: unknown): SchemaMode {
  const mode = field(object(body, 'with a field "mode"'), "mode");
  if (!isSchemaMode(mode)) {
    throw schemaRefused(
      "INVALID_MODE",
      `Invalid mode: field "mode" must be one of ${SCHEMA_MODES.join(", ")}, not ${describe(mode)}`,
    );
  }
  return mode;
}

/** A version in a path: a number from 1 to 2^31-1, "latest" or -1 (42202 otherwise). */
export function versionParam(text: string): VersionSelector {
  if (text === "latest" || text === "-1") return "latest";
  const version = /^[0-9]{1,10}$/.test(text) ? Number(text) : Number.NaN;
  if (!isProtocolInt(version)) {
    throw schemaRefused(
      "INVALID_VERSION",
      `The specified version ${JSON.stringify(text.slice(0, 40))} is not a valid version id. Allowed values are between [1, ${MAX_VERSION}] and the string "latest"`,
    );
  }
  return version;
}

/** A schema id in a path: a number from 1 to 2^31-1 (422 otherwise). */
export function idParam(text: string): number {
  const id = /^[0-9]{1,10}$/.test(text) ? Number(text) : Number.NaN;
  if (!isProtocolInt(id)) {
    throw schemaRefused(
      "INVALID_INPUT",
      `The schema id ${JSON.stringify(text.slice(0, 40))} is not valid: ids are integers from 1 to ${MAX_VERSION}`,
    );
  }
  return id;
}

/** A true/false query parameter (absent: false); 422 for any other value. */
export function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  const lower = value.toLowerCase();
  if (lower === "true" || lower === "false") return lower === "true";
  throw schemaRefused(
    "INVALID_INPUT",
    `Query parameter "${name}" must be true or false, not ${JSON.stringify(value.slice(0, 40))}`,
  );
}
