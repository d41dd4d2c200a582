import { describe, expect, it } from "vitest";
import { checkCompatibility, isCompatibilityLevel, parseSchema, type ParsedSchema } from "../src/index.ts";

const v = (version: number, schema: ParsedSchema) => ({ version, schema });
const avro = parseSchema("AVRO", '{"type":"record","name":"R","fields":[{"name":"a","type":"string"}]}');
const json = parseSchema("JSON", '{"type":"object","properties":{"a":{"type":"string"}}}');

describe("checkCompatibility", () => {
  it("a change of schema type is incompatible, under any level but NONE", () => {
    const result = checkCompatibility("BACKWARD", json, [v(1, avro)]);
    expect(result.compatible).toBe(false);
    expect(result.messages).toEqual([
      "version 1: SCHEMA_TYPE_CHANGED at /: version 1 is AVRO, the new schema is JSON",
    ]);
    expect(checkCompatibility("NONE", json, [v(1, avro)]).compatible).toBe(true);
  });

  it("is compatible with no previous versions", () => {
    expect(checkCompatibility("FULL_TRANSITIVE", avro, [])).toEqual({
      compatible: true,
      messages: [],
      issues: [],
    });
  });

  it("says, for each issue, the version, the direction, the rule and the place", () => {
    const wider = parseSchema(
      "AVRO",
      '{"type":"record","name":"R","fields":[{"name":"a","type":"string"},{"name":"b","type":"int"}]}',
    );
    const [issue] = checkCompatibility("FULL", wider, [v(7, avro)]).issues;
    expect(issue).toMatchObject({
      version: 7,
      direction: "BACKWARD",
      rule: "READER_FIELD_MISSING_DEFAULT_VALUE",
      path: "/fields/1",
    });
    expect(issue?.message).toMatch(/^version 7: READER_FIELD_MISSING_DEFAULT_VALUE at \/fields\/1: /);
  });

  it("checks every version under a transitive level, newest first", () => {
    const strings = parseSchema("AVRO", '"string"');
    const ints = parseSchema("AVRO", '"int"');
    const result = checkCompatibility("BACKWARD_TRANSITIVE", ints, [v(1, strings), v(2, strings)]);
    expect(result.issues.map((issue) => issue.version)).toEqual([2, 1]);
  });

  it("works on a ParsedSchema made elsewhere (a store's row), parsing its text again", () => {
    const stored: ParsedSchema = { ...avro };
    const candidate = parseSchema(
      "AVRO",
      '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}',
    );
    expect(checkCompatibility("BACKWARD", candidate, [v(1, stored)]).messages[0]).toContain("TYPE_MISMATCH");
  });

  it("recognises compatibility levels", () => {
    expect(isCompatibilityLevel("FULL_TRANSITIVE")).toBe(true);
    expect(isCompatibilityLevel("full")).toBe(false);
    expect(isCompatibilityLevel(undefined)).toBe(false);
  });
});

describe("schemas that could make a checker slow or deep", () => {
  it("compares each pair of messages once, however many paths reach it", () => {
    // Level i has three fields of level i+1's type: 3^16 paths to the last level.
    const levels = Array.from(
      { length: 16 },
      (_, i) => `message L${i} { L${i + 1} a = 1; L${i + 1} b = 2; L${i + 1} c = 3; }`,
    );
    const text = (last: string) =>
      `syntax = "proto3";\n${levels.join("\n")}\nmessage L16 { ${last} x = 1; }\n`;
    const started = performance.now();
    const result = checkCompatibility("BACKWARD", parseSchema("PROTOBUF", text("string")), [
      v(1, parseSchema("PROTOBUF", text("int32"))),
    ]);
    expect(result.compatible).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("compares each pair of Avro types once, however many fields reach it", () => {
    const level = (i: number, last: string): object =>
      i === 16
        ? { type: "record", name: "L16", fields: [{ name: "x", type: last }] }
        : {
            type: "record",
            name: `L${i}`,
            fields: [
              { name: "a", type: level(i + 1, last) },
              { name: "b", type: `L${i + 1}` },
              { name: "c", type: `L${i + 1}` },
            ],
          };
    const started = performance.now();
    const result = checkCompatibility("BACKWARD", parseSchema("AVRO", JSON.stringify(level(0, "int"))), [
      v(1, parseSchema("AVRO", JSON.stringify(level(0, "string")))),
    ]);
    expect(result.messages[0]).toContain("TYPE_MISMATCH at /fields/0/type/fields/0/type");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("compares each pair of JSON subschemas once, however many $refs reach it", () => {
    const definitions = (last: object) =>
      Object.fromEntries([
        ...Array.from({ length: 16 }, (_, i) => {
          const next = { $ref: `#/definitions/d${i + 1}` };
          return [`d${i}`, { type: "object", properties: { a: next, b: next, c: next } }];
        }),
        ["d16", last],
      ]);
    const text = (last: object) =>
      JSON.stringify({ $ref: "#/definitions/d0", definitions: definitions(last) });
    const started = performance.now();
    const result = checkCompatibility("BACKWARD", parseSchema("JSON", text({ type: "integer" })), [
      v(1, parseSchema("JSON", text({ type: "number" }))),
    ]);
    expect(result.messages.join()).toContain("TYPE_NARROWED");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("a schema nested deeper than the stack is an invalid schema", () => {
    const deep = `${'{"type":"array","items":'.repeat(20_000)}"int"${"}".repeat(20_000)}`;
    expect(() => parseSchema("AVRO", deep)).toThrow(
      /invalid AVRO schema: .*nests too deeply|invalid AVRO schema/,
    );
  });
});
