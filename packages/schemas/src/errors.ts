import type { SchemaType } from "./types.ts";

/** A schema text that does not parse or validate; the message says what is wrong and where. */
export class SchemaParseError extends Error {
  override readonly name = "SchemaParseError";

  constructor(
    message: string,
    readonly schemaType?: SchemaType,
  ) {
    super(message);
  }
}

export function parseError(type: SchemaType, problem: string): SchemaParseError {
  return new SchemaParseError(`invalid ${type} schema: ${problem}`, type);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
