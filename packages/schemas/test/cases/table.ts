import type { CompatibilityLevel, ResolvedReference, SchemaType } from "../../src/index.ts";

/** A schema of a case: its text, with the references it imports when it has some. */
export type SchemaInput = string | { readonly schema: string; readonly references: ResolvedReference[] };

export interface CompatibilityCase {
  readonly name: string;
  readonly format: SchemaType;
  readonly level: CompatibilityLevel;
  /** The subject's versions, oldest first (version 1, 2, ...). */
  readonly previous: readonly SchemaInput[];
  readonly candidate: SchemaInput;
  readonly compatible: boolean;
  /** For an incompatible case: a substring of one of the messages. */
  readonly reason?: string;
}

/** name, level, previous versions (oldest first), candidate, and `true` or the expected reason. */
export type Row = readonly [
  name: string,
  level: CompatibilityLevel,
  previous: readonly SchemaInput[],
  candidate: SchemaInput,
  expected: true | string,
];

export function table(format: SchemaType, rows: readonly Row[]): CompatibilityCase[] {
  return rows.map(([name, level, previous, candidate, expected]) => ({
    name,
    format,
    level,
    previous,
    candidate,
    compatible: expected === true,
    ...(expected === true ? {} : { reason: expected }),
  }));
}

export function withReferences(schema: string, references: ResolvedReference[]): SchemaInput {
  return { schema, references };
}
