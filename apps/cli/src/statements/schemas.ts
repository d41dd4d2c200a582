import { readFile } from "node:fs/promises";
import path from "node:path";
import type { SchemaSource, StatementOf } from "@stream-registry/ddl";
import { InputError } from "../errors.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import { runMutation } from "./mutation.ts";
import { namespaceInput } from "./namespaced.ts";

interface SchemaReference {
  subject: string;
  version: number;
  id: number;
}

/** `FILE widget.avsc` is relative to the script that names it; inline schemas are JSON. */
export async function schemaText(source: SchemaSource, baseDir: string): Promise<string> {
  if (source.kind === "inline") return JSON.stringify(source.schema);
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
  const schema = await schemaText(s.schema, context.baseDir);
  const answer = await runMutation<{ schema: SchemaReference }>(
    context,
    "REGISTER KEY SCHEMA",
    "registerKeySchema",
    { stream: s.stream, schema, ...namespaceInput(context) },
    "schema { subject version id }",
  );
  return outcome(schemaTable(answer.value.schema));
}

export async function registerTypeSchema(
  s: StatementOf<"registerTypeSchema">,
  context: StatementContext,
): Promise<Outcome> {
  const schema = await schemaText(s.schema, context.baseDir);
  const answer = await runMutation<{ schema: SchemaReference }>(
    context,
    "REGISTER TYPE SCHEMA",
    "registerTypeSchema",
    { stream: s.stream, typeName: s.typeName, schema, ...namespaceInput(context) },
    "schema { subject version id }",
  );
  return outcome(schemaTable(answer.value.schema));
}
