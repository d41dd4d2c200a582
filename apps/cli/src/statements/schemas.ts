import { readFile } from "node:fs/promises";
import path from "node:path";
import type { SchemaSource, SchemaType, StatementOf } from "@stream-registry/ddl";
import { InputError } from "../errors.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import { runMutation } from "./mutation.ts";
import { namespaceInput } from "./namespaced.ts";

interface SchemaReference {
  subject: string;
  version: number;
  id: number;
}

/** What each FILE extension holds; `AS <type>` names the type of any other file. */
const EXTENSION_TYPES: Readonly<Record<string, SchemaType>> = {
  ".avsc": "AVRO",
  ".json": "JSON",
  ".proto": "PROTOBUF",
};

/** The statement's `AS <type>`, else the FILE's extension's; an inline schema without AS is Avro. */
export function schemaTypeOf(source: SchemaSource, stated: SchemaType | undefined): SchemaType {
  if (stated !== undefined) return stated;
  if (source.kind === "inline") return "AVRO";
  const type = EXTENSION_TYPES[path.extname(source.path).toLowerCase()];
  if (type !== undefined) return type;
  throw new InputError(
    `FILE ${source.path}: its extension does not say the schema's type: name the file .avsc (Avro), ` +
      ".json (JSON Schema) or .proto (Protobuf), or write AS AVRO, AS JSON or AS PROTOBUF after the ( ... )",
  );
}

/**
 * `FILE widget.avsc` is relative to the script that names it. Inline schemas are JSON, but a
 * Protobuf schema is not: its inline form is a string holding the .proto text, sent as it is.
 */
export async function schemaText(
  source: SchemaSource,
  schemaType: SchemaType,
  baseDir: string,
): Promise<string> {
  if (source.kind === "inline") {
    return schemaType === "PROTOBUF" && typeof source.schema === "string"
      ? source.schema
      : JSON.stringify(source.schema);
  }
  const file = path.resolve(baseDir, source.path);
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new InputError(`FILE ${source.path}: cannot read ${file} (${reason})`);
  }
}

/** The seed's table of registered schemas: | Subject | Version | Id |. */
export const SCHEMA_COLUMNS = [
  { key: "subject", header: "Subject" },
  { key: "version", header: "Version", align: "right" as const },
  { key: "id", header: "Id", align: "right" as const },
];

function schemaTable({ subject, version, id }: SchemaReference) {
  return { type: "table" as const, columns: SCHEMA_COLUMNS, rows: [{ subject, version, id }] };
}

export async function registerKeySchema(
  s: StatementOf<"registerKeySchema">,
  context: StatementContext,
): Promise<Outcome> {
  const schemaType = schemaTypeOf(s.schema, s.schemaType);
  const schema = await schemaText(s.schema, schemaType, context.baseDir);
  const answer = await runMutation<{ schema: SchemaReference }>(
    context,
    "REGISTER KEY SCHEMA",
    "registerKeySchema",
    { stream: s.stream, schema, schemaType, ...namespaceInput(context) },
    "schema { subject version id }",
  );
  return outcome(schemaTable(answer.value.schema));
}

export async function registerTypeSchema(
  s: StatementOf<"registerTypeSchema">,
  context: StatementContext,
): Promise<Outcome> {
  const schemaType = schemaTypeOf(s.schema, s.schemaType);
  const schema = await schemaText(s.schema, schemaType, context.baseDir);
  const answer = await runMutation<{ schema: SchemaReference }>(
    context,
    "REGISTER TYPE SCHEMA",
    "registerTypeSchema",
    { stream: s.stream, typeName: s.typeName, schema, schemaType, ...namespaceInput(context) },
    "schema { subject version id }",
  );
  return outcome(schemaTable(answer.value.schema));
}
