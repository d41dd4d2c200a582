import { isPlainObject, sortKeys } from "../stable-json.ts";

const PRIMITIVES = new Set(["null", "boolean", "int", "long", "float", "double", "bytes", "string"]);
const NAMED = new Set(["record", "error", "enum", "fixed"]);
/** Attributes printed in a fixed place; everything else (logicalType, custom properties) follows, sorted. */
const KNOWN_ATTRIBUTES = new Set([
  "type",
  "name",
  "namespace",
  "doc",
  "aliases",
  "fields",
  "symbols",
  "default",
  "size",
  "items",
  "values",
]);
const KNOWN_FIELD_ATTRIBUTES = new Set(["name", "type", "doc", "default", "order", "aliases"]);

/**
 * Avro's Parsing Canonical Form (full names, no namespace attribute, fixed attribute order, no
 * whitespace) extended with what Confluent keeps as part of a schema's identity: doc, aliases,
 * defaults, field order, logical types and custom properties. Runs on a schema avsc has accepted.
 * `isDefined` tells whether a full name is a known named type (this schema's or a reference's).
 */
export function avroCanonicalForm(schema: unknown, isDefined: (fullName: string) => boolean): string {
  return JSON.stringify(canonical(schema, "", isDefined));
}

function canonical(schema: unknown, namespace: string, isDefined: (name: string) => boolean): unknown {
  if (typeof schema === "string") {
    return PRIMITIVES.has(schema) ? schema : resolveName(schema, namespace, isDefined);
  }
  if (Array.isArray(schema)) return schema.map((branch) => canonical(branch, namespace, isDefined));
  if (!isPlainObject(schema)) return schema;
  const type = schema["type"];
  if (typeof type !== "string") return canonical(type, namespace, isDefined);
  if (PRIMITIVES.has(type)) {
    const extras = extraAttributes(schema, KNOWN_ATTRIBUTES);
    return Object.keys(extras).length === 0 ? type : { type, ...extras };
  }
  if (NAMED.has(type)) return namedType(schema, type, namespace, isDefined);
  const out: Record<string, unknown> = { type };
  if (type === "array") out["items"] = canonical(schema["items"], namespace, isDefined);
  if (type === "map") out["values"] = canonical(schema["values"], namespace, isDefined);
  return { ...out, ...extraAttributes(schema, KNOWN_ATTRIBUTES) };
}

function namedType(
  schema: Record<string, unknown>,
  type: string,
  enclosing: string,
  isDefined: (name: string) => boolean,
): Record<string, unknown> {
  const declared = typeof schema["namespace"] === "string" ? schema["namespace"] : enclosing;
  const fullName = qualify(String(schema["name"]), declared);
  const namespace = namespaceOf(fullName);
  const out: Record<string, unknown> = { name: fullName, type };
  if (type === "record" || type === "error") {
    const fields = Array.isArray(schema["fields"]) ? schema["fields"] : [];
    out["fields"] = fields.map((field) => canonicalField(field, namespace, isDefined));
  }
  if (type === "enum") {
    out["symbols"] = schema["symbols"];
    if (schema["default"] !== undefined) out["default"] = schema["default"];
  }
  if (type === "fixed") out["size"] = schema["size"];
  if (typeof schema["doc"] === "string") out["doc"] = schema["doc"];
  if (Array.isArray(schema["aliases"]) && schema["aliases"].length > 0) {
    out["aliases"] = schema["aliases"].map((alias) => qualify(String(alias), namespace));
  }
  return { ...out, ...extraAttributes(schema, KNOWN_ATTRIBUTES) };
}

function canonicalField(field: unknown, namespace: string, isDefined: (name: string) => boolean): unknown {
  if (!isPlainObject(field)) return field;
  const out: Record<string, unknown> = {
    name: field["name"],
    type: canonical(field["type"], namespace, isDefined),
  };
  if (typeof field["doc"] === "string") out["doc"] = field["doc"];
  if (field["default"] !== undefined) out["default"] = sortKeys(field["default"]);
  if (field["order"] !== undefined && field["order"] !== "ascending") out["order"] = field["order"];
  if (Array.isArray(field["aliases"]) && field["aliases"].length > 0) out["aliases"] = field["aliases"];
  return { ...out, ...extraAttributes(field, KNOWN_FIELD_ATTRIBUTES) };
}

function extraAttributes(schema: Record<string, unknown>, known: Set<string>): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  for (const key of Object.keys(schema).sort()) {
    if (!known.has(key)) extras[key] = sortKeys(schema[key]);
  }
  return extras;
}

/** A reference by name: in the enclosing namespace if such a type exists there, else as written. */
function resolveName(name: string, namespace: string, isDefined: (name: string) => boolean): string {
  if (name.includes(".") || namespace === "") return name;
  const inNamespace = `${namespace}.${name}`;
  if (isDefined(inNamespace) || !isDefined(name)) return inNamespace;
  return name;
}

export function qualify(name: string, namespace: string): string {
  return name.includes(".") || namespace === "" ? name : `${namespace}.${name}`;
}

function namespaceOf(fullName: string): string {
  const dot = fullName.lastIndexOf(".");
  return dot < 0 ? "" : fullName.slice(0, dot);
}
