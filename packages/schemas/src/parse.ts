import { createHash } from "node:crypto";
import { parseAvro, type AvroParsed } from "./avro/parse.ts";
import { parseError } from "./errors.ts";
import { parseJsonSchema, type JsonParsed } from "./json-schema/parse.ts";
import { parseProtobuf, type ProtoParsed } from "./protobuf/parse.ts";
import { isSchemaType, type ParsedSchema, type ResolvedReference, type SchemaType } from "./types.ts";

/** What a format's parser made of a schema, kept for compatibility checks. */
export type FormatParsed =
  | { readonly type: "AVRO"; readonly avro: AvroParsed }
  | { readonly type: "JSON"; readonly json: JsonParsed }
  | { readonly type: "PROTOBUF"; readonly proto: ProtoParsed };

const formats = new WeakMap<ParsedSchema, FormatParsed>();

/**
 * Parses and validates a schema of the given type, its references resolved by the caller. Throws
 * SchemaParseError naming what is wrong (`invalid AVRO schema: unknown type "strin"`).
 */
export function parseSchema(
  type: SchemaType,
  text: string,
  references: readonly ResolvedReference[] = [],
): ParsedSchema {
  if (!isSchemaType(type)) throw parseError(type, `unknown schema type ${JSON.stringify(type)}`);
  if (typeof text !== "string" || text.trim() === "") throw parseError(type, "the schema is empty");
  const { format, digest } = withinStack(type, () => {
    const format = parseFormat(type, text, references);
    return { format, digest: fingerprint(type, summary(format).canonical, references, new Map()) };
  });
  const { canonical, recordName } = summary(format);
  const parsed: ParsedSchema = Object.freeze({
    type,
    text,
    canonical,
    fingerprint: digest,
    recordName,
    references: Object.freeze([...references]),
  });
  formats.set(parsed, format);
  return parsed;
}

/** A schema nested deeper than the stack allows is as invalid as any other. */
function withinStack<T>(type: SchemaType, body: () => T): T {
  try {
    return body();
  } catch (err) {
    if (err instanceof RangeError) throw parseError(type, `the schema nests too deeply (${err.message})`);
    throw err;
  }
}

/** The format's own parse of a schema: kept from parseSchema, or parsed again for one made elsewhere. */
export function formatOf(schema: ParsedSchema): FormatParsed {
  let format = formats.get(schema);
  if (!format) {
    format = parseFormat(schema.type, schema.text, schema.references);
    formats.set(schema, format);
  }
  return format;
}

function parseFormat(type: SchemaType, text: string, references: readonly ResolvedReference[]): FormatParsed {
  switch (type) {
    case "AVRO":
      return { type, avro: parseAvro(text, references) };
    case "JSON":
      return { type, json: parseJsonSchema(text, references) };
    case "PROTOBUF":
      return { type, proto: parseProtobuf(text, references) };
  }
}

function summary(format: FormatParsed): { canonical: string; recordName: string | undefined } {
  switch (format.type) {
    case "AVRO":
      return format.avro;
    case "JSON":
      return format.json;
    case "PROTOBUF":
      return format.proto;
  }
}

/** SHA-256 of the type, the canonical form and each reference's name and own fingerprint. */
function fingerprint(
  type: SchemaType,
  canonical: string,
  references: readonly ResolvedReference[],
  known: Map<ResolvedReference, string>,
): string {
  const parts = references.map((reference) => [reference.name, referenceFingerprint(reference, known)]);
  return createHash("sha256")
    .update(JSON.stringify([type, canonical, parts]))
    .digest("hex");
}

function referenceFingerprint(reference: ResolvedReference, known: Map<ResolvedReference, string>): string {
  let value = known.get(reference);
  if (value === undefined) {
    const { canonical } = summary(parseFormat(reference.schemaType, reference.schema, reference.references));
    value = fingerprint(reference.schemaType, canonical, reference.references, known);
    known.set(reference, value);
  }
  return value;
}
