import type { Ajv as AjvInstance, ErrorObject } from "ajv";
import { errorMessage, parseError, SchemaParseError } from "../errors.ts";
import { isPlainObject, stableStringify } from "../stable-json.ts";
import type { ResolvedReference } from "../types.ts";
import { ajvFor, draftOf, type JsonDraft } from "./drafts.ts";

export interface JsonDocument {
  /** How references name it (the main document: ""). */
  readonly name: string;
  readonly schema: unknown;
}

export interface JsonParsed {
  readonly draft: JsonDraft;
  readonly root: JsonDocument;
  /** The referenced documents, transitively. */
  readonly references: readonly JsonDocument[];
  readonly canonical: string;
  readonly recordName: string | undefined;
}

/** Parses a JSON Schema and validates it against its draft's meta-schema with ajv, references loaded. */
export function parseJsonSchema(text: string, references: readonly ResolvedReference[]): JsonParsed {
  const schema = parseJson(text, "");
  if (!isPlainObject(schema) && typeof schema !== "boolean") {
    throw parseError("JSON", "a schema is a JSON object or a boolean");
  }
  const draft = draftOrFail(schema);
  const documents = collectReferences(references, new Map());
  const ajv = ajvFor(draft);
  try {
    for (const document of documents) addReference(ajv, document);
    if (!ajv.validateSchema(schema)) throw parseError("JSON", describeErrors(schema, ajv.errors));
    checkPatterns(schema, "");
    // Compiling resolves $refs (a missing one is an error) and costs most of a parse: only when
    // there is one to resolve.
    if (text.includes("$ref") || text.includes("$dynamicRef")) ajv.compile(schema);
  } catch (err) {
    throw err instanceof SchemaParseError ? err : parseError("JSON", errorMessage(err));
  } finally {
    ajv.removeSchema();
  }
  const title = isPlainObject(schema) && typeof schema["title"] === "string" ? schema["title"] : undefined;
  return {
    draft,
    root: { name: "", schema },
    references: documents,
    canonical: stableStringify(schema),
    recordName: title,
  };
}

function draftOrFail(schema: unknown): JsonDraft {
  const declared = isPlainObject(schema) ? schema["$schema"] : undefined;
  const draft = draftOf(declared);
  if (!draft) throw parseError("JSON", `unsupported $schema ${JSON.stringify(declared)}`);
  return draft;
}

function collectReferences(
  references: readonly ResolvedReference[],
  into: Map<string, JsonDocument>,
): JsonDocument[] {
  for (const reference of references) {
    if (into.has(reference.name)) continue;
    if (reference.schemaType !== "JSON") {
      throw parseError(
        "JSON",
        `reference "${reference.name}": a JSON schema can only reference JSON schemas, not ${reference.schemaType}`,
      );
    }
    const schema = parseJson(reference.schema, `reference "${reference.name}": `);
    into.set(reference.name, { name: reference.name, schema });
    collectReferences(reference.references, into);
  }
  return [...into.values()];
}

function addReference(ajv: AjvInstance, document: JsonDocument): void {
  try {
    // Known under its reference name, and under its $id if it has one.
    ajv.addSchema(document.schema as object, document.name);
  } catch (err) {
    throw parseError("JSON", `reference "${document.name}": ${errorMessage(err)}`);
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw parseError("JSON", `${where}not JSON: ${errorMessage(err)}`);
  }
}

/** One problem per place, naming the offending value: `/properties/a/type: "strin" must be ...`. */
function describeErrors(schema: unknown, errors: ErrorObject[] | null | undefined): string {
  const byPath = new Map<string, string>();
  for (const error of errors ?? []) {
    if (byPath.has(error.instancePath)) continue;
    const value = JSON.stringify(valueAt(schema, error.instancePath)) ?? "undefined";
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    byPath.set(error.instancePath, `${error.instancePath || "/"}: ${shown} ${error.message ?? "is invalid"}`);
  }
  return [...byPath.values()].join("; ");
}

/** Every `pattern` and `patternProperties` key must be a regular expression (ajv checks them only when compiling). */
function checkPatterns(schema: unknown, path: string): void {
  if (Array.isArray(schema)) return schema.forEach((item, i) => checkPatterns(item, `${path}/${i}`));
  if (!isPlainObject(schema)) return;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "pattern" && typeof value === "string") checkPattern(value, `${path}/pattern`);
    if (key === "patternProperties" && isPlainObject(value)) {
      for (const pattern of Object.keys(value)) checkPattern(pattern, `${path}/patternProperties`);
    }
    // `enum`, `const`, `default` and `examples` hold values, not schemas.
    if (!["enum", "const", "default", "examples"].includes(key)) checkPatterns(value, `${path}/${key}`);
  }
}

function checkPattern(pattern: string, path: string): void {
  try {
    new RegExp(pattern, "u");
  } catch (err) {
    throw parseError(
      "JSON",
      `${path}: ${JSON.stringify(pattern)} is not a regular expression (${errorMessage(err)})`,
    );
  }
}

function valueAt(schema: unknown, pointer: string): unknown {
  let value = schema;
  for (const token of pointer.split("/").slice(1)) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    value =
      isPlainObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}
