import { createHash } from "node:crypto";
import type { SchemaDependency, SubjectVersion } from "@stream-registry/core";
import {
  parseSchema,
  SchemaParseError,
  type ParsedSchema,
  type ResolvedReference,
} from "@stream-registry/schemas";
import { findSubjectVersion, type Db } from "@stream-registry/store";
import { refuse } from "./refusals.ts";
import { MAX_REFERENCE_DEPTH, type CheckedInput } from "./schema-input.ts";

/**
 * What a schema's references name, read from the store, each with its own references, for the
 * parser. `requireLive`: a new schema may not reference a soft-deleted version (a stored one may).
 */
export async function resolveReferences(
  db: Db,
  references: readonly SchemaDependency[],
  requireLive: boolean,
): Promise<ResolvedReference[]> {
  const known = new Map<string, Promise<ResolvedReference>>();
  const resolve = (reference: SchemaDependency, depth: number): Promise<ResolvedReference> => {
    const key = JSON.stringify([reference.name, reference.subject, reference.version]);
    let resolved = known.get(key);
    if (!resolved) {
      resolved = resolveOne(reference, depth);
      known.set(key, resolved);
    }
    return resolved;
  };
  const resolveOne = async (reference: SchemaDependency, depth: number): Promise<ResolvedReference> => {
    if (depth > MAX_REFERENCE_DEPTH) {
      throw refuse.invalidSchema(`Invalid schema: references nest deeper than ${MAX_REFERENCE_DEPTH}`);
    }
    const found = await findSubjectVersion(db, reference.subject, reference.version);
    if (!found || (requireLive && depth === 0 && found.deleted)) {
      throw refuse.invalidSchema(
        `Invalid schema: reference ${JSON.stringify(reference.name)} names version ${reference.version} of ` +
          `subject ${JSON.stringify(reference.subject)}, which ${found ? "was deleted" : "does not exist"}`,
      );
    }
    const nested = [];
    for (const inner of found.references) nested.push(await resolve(inner, depth + 1));
    return { name: reference.name, schemaType: found.schemaType, schema: found.schema, references: nested };
  };
  const resolved = [];
  for (const reference of references) resolved.push(await resolve(reference, 0));
  return resolved;
}

/**
 * Parses a schema given by a caller: INVALID_SCHEMA, naming what is wrong, when it does not parse.
 * `requireLive`: its references must name live versions (a registration; a look-up may name any).
 */
export async function parseInput(db: Db, input: CheckedInput, requireLive = true): Promise<ParsedSchema> {
  const references = await resolveReferences(db, input.references, requireLive);
  try {
    return parseSchema(input.schemaType, input.schema, references);
  } catch (error) {
    if (error instanceof SchemaParseError) throw refuse.invalidSchema(error.message);
    // A hostile nesting deeper than the parser's stack: as invalid as any other.
    if (error instanceof RangeError) throw refuse.invalidSchema(`Invalid schema: ${error.message}`);
    throw error;
  }
}

/** Parses a schema the registry holds (for a compatibility check); one that no longer parses is a fault. */
export async function parseStored(db: Db, version: SubjectVersion): Promise<ParsedSchema> {
  const references = await resolveReferences(db, version.references, false);
  try {
    return parseSchema(version.schemaType, version.schema, references);
  } catch (error) {
    throw new Error(
      `schema ${version.id} (version ${version.version} of subject ${JSON.stringify(version.subject)}) no longer parses`,
      { cause: error },
    );
  }
}

/**
 * A schema's identity, which decides its id: its type, its canonical form (so whitespace and key
 * order do not count) and its references as named (name, subject, version), in order, as Confluent.
 */
export function schemaIdentity(parsed: ParsedSchema, references: readonly SchemaDependency[]): string {
  const named = references.map(({ name, subject, version }) => [name, subject, version]);
  return createHash("sha256")
    .update(JSON.stringify([parsed.type, parsed.canonical, named]))
    .digest("hex");
}
