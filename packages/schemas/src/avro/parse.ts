import avro from "avsc";
import { errorMessage, parseError } from "../errors.ts";
import type { ResolvedReference } from "../types.ts";
import { avroCanonicalForm } from "./canonical.ts";

export type AvroType = avro.Type;
type Registry = Record<string, AvroType>;

export interface AvroParsed {
  readonly type: AvroType;
  readonly canonical: string;
  readonly recordName: string | undefined;
}

const NAMED_TYPES = new Set(["record", "error", "enum", "fixed"]);

/**
 * Parses an Avro schema with avsc, the named types of its references known first (Confluent's
 * references for Avro are named types, `name` being the full type name).
 */
export function parseAvro(text: string, references: readonly ResolvedReference[]): AvroParsed {
  const registry: Registry = {};
  loadReferences(references, registry, new Set());
  const json = parseJson(text, "");
  const type = forSchema(json, registry, "");
  const canonical = avroCanonicalForm(json, (name) => registry[name] !== undefined);
  const recordName = NAMED_TYPES.has(type.typeName) ? type.name : undefined;
  return { type, canonical, recordName };
}

function loadReferences(
  references: readonly ResolvedReference[],
  registry: Registry,
  seen: Set<string>,
): void {
  for (const reference of references) {
    const where = `reference "${reference.name}": `;
    if (reference.schemaType !== "AVRO") {
      throw parseError(
        "AVRO",
        `${where}an AVRO schema can only reference AVRO schemas, not ${reference.schemaType}`,
      );
    }
    if (seen.has(reference.name)) continue;
    seen.add(reference.name);
    loadReferences(reference.references, registry, seen);
    if (registry[reference.name] !== undefined) continue;
    forSchema(parseJson(reference.schema, where), registry, where);
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw parseError("AVRO", `${where}not JSON: ${errorMessage(err)}`);
  }
}

function forSchema(json: unknown, registry: Registry, where: string): AvroType {
  try {
    // wrapUnions: unions stay unions whatever their branches (avsc may otherwise unwrap them).
    return avro.Type.forSchema(json as avro.Schema, { registry, wrapUnions: true });
  } catch (err) {
    throw parseError("AVRO", where + describe(errorMessage(err)));
  }
}

/** avsc's wording, with the unknown-type messages made uniform: `unknown type "strin"`. */
function describe(message: string): string {
  const undefinedName = /^undefined type name: (.*)$/.exec(message);
  if (undefinedName) return `unknown type "${undefinedName[1]}"`;
  const unknownType = /^unknown type: "(.*)"$/.exec(message);
  if (unknownType) return `unknown type "${unknownType[1]}"`;
  return message;
}
