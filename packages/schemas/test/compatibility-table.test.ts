import { describe, expect, it } from "vitest";
import { checkCompatibility, COMPATIBILITY_LEVELS, parseSchema, type ParsedSchema } from "../src/index.ts";
import { avroRecordCases } from "./cases/avro-record-cases.ts";
import { avroTypeCases } from "./cases/avro-type-cases.ts";
import { jsonObjectCases } from "./cases/json-object-cases.ts";
import { jsonValueCases } from "./cases/json-value-cases.ts";
import { protobufCases } from "./cases/protobuf-cases.ts";
import type { CompatibilityCase, SchemaInput } from "./cases/table.ts";

const CASES: CompatibilityCase[] = [
  ...avroRecordCases,
  ...avroTypeCases,
  ...jsonObjectCases,
  ...jsonValueCases,
  ...protobufCases,
];

function parse(format: CompatibilityCase["format"], input: SchemaInput): ParsedSchema {
  return typeof input === "string"
    ? parseSchema(format, input)
    : parseSchema(format, input.schema, input.references);
}

describe("compatibility table", () => {
  it.each(CASES.map((c) => [`${c.format} ${c.level}: ${c.name}`, c] as const))("%s", (_, c) => {
    const previous = c.previous.map((input, index) => ({
      version: index + 1,
      schema: parse(c.format, input),
    }));
    const result = checkCompatibility(c.level, parse(c.format, c.candidate), previous);
    const said = result.messages.join("\n");
    expect(result.compatible, said).toBe(c.compatible);
    if (c.compatible) expect(result.messages).toEqual([]);
    else expect(said).toContain(c.reason);
  });

  // Every schema of the table, and a few extremes, is fully compatible with itself.
  const EXTREMES: Array<[CompatibilityCase["format"], SchemaInput]> = [
    ["JSON", "true"],
    ["JSON", "false"],
    ["JSON", "{}"],
    ["JSON", '{"not":{}}'],
    ["JSON", '{"type":["string","integer","number","boolean","null","object","array"]}'],
  ];
  const everySchema = [
    ...EXTREMES,
    ...CASES.flatMap((c) => [...c.previous, c.candidate].map((input) => [c.format, input] as const)),
  ];
  it.each(everySchema.map(([format, input], i) => [i, format, input] as const))(
    "schema %i (%s) is compatible with itself",
    (_, format, input) => {
      const schema = parse(format, input);
      expect(checkCompatibility("FULL_TRANSITIVE", schema, [{ version: 1, schema }]).messages).toEqual([]);
    },
  );

  it("has at least 150 cases, enough of each format, and every level", () => {
    const count = (format: string) => CASES.filter((c) => c.format === format).length;
    expect(CASES.length).toBeGreaterThanOrEqual(150);
    expect(count("AVRO")).toBeGreaterThanOrEqual(70);
    expect(count("JSON")).toBeGreaterThanOrEqual(45);
    expect(count("PROTOBUF")).toBeGreaterThanOrEqual(35);
    for (const format of ["AVRO", "JSON", "PROTOBUF"]) {
      for (const level of COMPATIBILITY_LEVELS) {
        expect(
          CASES.some((c) => c.format === format && c.level === level),
          `${format} ${level}`,
        ).toBe(true);
      }
    }
  });
});
