import { ErrorCode, RegistryError, type SchemaDependency, type SchemaType } from "@stream-registry/core";
import type { SchemaContext, SchemaInput, SchemaManager } from "@stream-registry/provider-api";
import {
  parseSchema,
  SchemaParseError,
  type ParsedSchema,
  type ResolvedReference,
} from "@stream-registry/schemas";
import { schemaError } from "./schema-graphql-errors.ts";
import { checkInput, MAX_REFERENCE_DEPTH } from "./schema-input.ts";

/** A schema as GraphQL takes it (REGISTER ... SCHEMA, checkSchemaCompatibility). */
export interface CandidateInput {
  schema: string;
  schemaType?: SchemaType | null;
  references?: readonly SchemaDependency[] | null;
}

export function schemaInputOf(input: CandidateInput): SchemaInput {
  return {
    schema: input.schema,
    schemaType: input.schemaType ?? "AVRO",
    references: (input.references ?? []).map(({ name, subject, version }) => ({ name, subject, version })),
  };
}

/**
 * Parses a candidate before anything is sent, its references read from the registry it goes to:
 * invalid text is INVALID_INPUT naming `schema`, a reference that cannot be read names
 * `references`. The parsed schema gives the record name the record strategies need.
 */
export async function parseCandidate(
  input: SchemaInput,
  manager: SchemaManager,
  context: SchemaContext,
  at: string[],
): Promise<ParsedSchema> {
  // The built-in registry's limits (1 MiB, 1,000 references...) before any parsing, whichever registry.
  try {
    checkInput(input);
  } catch (error) {
    throw schemaError(error, at);
  }
  const resolve = async (reference: SchemaDependency, depth: number): Promise<ResolvedReference> => {
    if (depth > MAX_REFERENCE_DEPTH)
      throw new RegistryError(ErrorCode.INVALID_INPUT, `references nest deeper than ${MAX_REFERENCE_DEPTH}`, [
        ...at,
        "references",
      ]);
    const found = await manager
      .getSchema(reference.subject, reference.version, context)
      .catch((error: unknown) => {
        const refused = schemaError(error, at);
        if (!(refused instanceof RegistryError) || refused.code !== ErrorCode.NOT_FOUND) throw refused;
        throw new RegistryError(
          ErrorCode.INVALID_INPUT,
          `reference ${JSON.stringify(reference.name)}: ${refused.message}`,
          [...at, "references"],
        );
      });
    const nested: ResolvedReference[] = [];
    for (const inner of found.references) nested.push(await resolve(inner, depth + 1));
    return { name: reference.name, schemaType: found.schemaType, schema: found.schema, references: nested };
  };
  const references: ResolvedReference[] = [];
  for (const reference of input.references ?? []) references.push(await resolve(reference, 0));
  try {
    return parseSchema(input.schemaType ?? "AVRO", input.schema, references);
  } catch (error) {
    if (error instanceof SchemaParseError || error instanceof RangeError)
      throw new RegistryError(ErrorCode.INVALID_INPUT, `invalid schema: ${error.message}`, [...at, "schema"]);
    throw error;
  }
}
