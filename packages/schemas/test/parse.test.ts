import { describe, expect, it } from "vitest";
import { parseSchema, SchemaParseError, type SchemaType } from "../src/index.ts";

function parseFailure(type: SchemaType, text: string): string {
  try {
    parseSchema(type, text);
  } catch (err) {
    expect(err).toBeInstanceOf(SchemaParseError);
    return (err as Error).message;
  }
  throw new Error(`expected ${type} schema to fail: ${text}`);
}

const INVALID: ReadonlyArray<readonly [SchemaType, string, string, string]> = [
  [
    "AVRO",
    "a field of unknown type",
    '{"type":"record","name":"R","fields":[{"name":"a","type":"strin"}]}',
    'unknown type "strin"',
  ],
  ["AVRO", "an unknown type", '{"type":"strin"}', 'unknown type "strin"'],
  ["AVRO", "not JSON", '{"type":"record",', "not JSON"],
  [
    "AVRO",
    "a default of the wrong type",
    '{"type":"record","name":"R","fields":[{"name":"a","type":"int","default":"x"}]}',
    'incompatible field default "x"',
  ],
  ["AVRO", "a record without fields", '{"type":"record","name":"R"}', "fields"],
  ["AVRO", "a duplicate enum symbol", '{"type":"enum","name":"E","symbols":["A","A"]}', "duplicate"],
  ["AVRO", "an invalid name", '{"type":"record","name":"1R","fields":[]}', 'invalid name: "1R"'],
  [
    "AVRO",
    "a union default not of the first branch",
    '{"type":"record","name":"R","fields":[{"name":"a","type":["null","int"],"default":1}]}',
    "union defaults must match the first branch",
  ],
  [
    "JSON",
    "an unknown type",
    '{"type":"object","properties":{"a":{"type":"strin"}}}',
    '/properties/a/type: "strin"',
  ],
  ["JSON", "a keyword of the wrong type", '{"type":"object","minProperties":"x"}', "/minProperties"],
  [
    "JSON",
    "an unresolvable $ref",
    '{"properties":{"a":{"$ref":"#/definitions/nope"}}}',
    "can't resolve reference #/definitions/nope",
  ],
  ["JSON", "a missing reference", '{"properties":{"a":{"$ref":"other.json"}}}', "other.json"],
  [
    "JSON",
    "an unknown draft",
    '{"$schema":"http://example.com/my-draft","type":"object"}',
    "unsupported $schema",
  ],
  ["JSON", "not a schema", '"hello"', "a schema is a JSON object or a boolean"],
  ["JSON", "not JSON", "{type: object}", "not JSON"],
  [
    "JSON",
    "a pattern that is no regular expression",
    '{"properties":{"a":{"type":"string","pattern":"(x"}}}',
    '/properties/a/pattern: "(x" is not a regular expression',
  ],
  [
    "PROTOBUF",
    "an unknown field type",
    'syntax = "proto3"; message M { strin a = 1; }',
    "no such Type or Enum 'strin'",
  ],
  ["PROTOBUF", "a syntax error", 'syntax = "proto3"; message M { string a = 1 }', "illegal token"],
  [
    "PROTOBUF",
    "a duplicate field number",
    'syntax = "proto3"; message M { string a = 1; string b = 1; }',
    "duplicate id 1",
  ],
  [
    "PROTOBUF",
    "an import that is not a reference",
    'syntax = "proto3"; import "other.proto"; message M { string a = 1; }',
    'import "other.proto" is not among',
  ],
];

describe("parseSchema: invalid texts name the problem", () => {
  it.each(INVALID)("%s: %s", (format, _, text, problem) => {
    const message = parseFailure(format, text);
    expect(message).toMatch(new RegExp(`^invalid ${format} schema: `));
    expect(message).toContain(problem);
  });

  it("an empty text and an unknown type are refused", () => {
    expect(parseFailure("AVRO", "  ")).toContain("empty");
    expect(parseFailure("XML" as SchemaType, "<a/>")).toContain('unknown schema type "XML"');
  });
});

describe("parseSchema: what a parsed schema says", () => {
  it("names the record for RecordNameStrategy", () => {
    const avro = '{"type":"record","name":"Widget","namespace":"com.acme","fields":[]}';
    expect(parseSchema("AVRO", avro).recordName).toBe("com.acme.Widget");
    expect(parseSchema("AVRO", '"string"').recordName).toBeUndefined();
    expect(parseSchema("JSON", '{"title":"Widget","type":"object"}').recordName).toBe("Widget");
    expect(parseSchema("JSON", '{"type":"object"}').recordName).toBeUndefined();
    const proto =
      'syntax = "proto3"; package acme; message Widget { string a = 1; } message Gadget { int32 b = 1; }';
    expect(parseSchema("PROTOBUF", proto).recordName).toBe("acme.Widget");
  });

  it("keeps the text, the type and the references it was given", () => {
    const parsed = parseSchema("JSON", '{ "type": "string" }');
    expect(parsed).toMatchObject({ type: "JSON", text: '{ "type": "string" }', references: [] });
    expect(parsed.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it("accepts each JSON Schema draft Confluent does", () => {
    for (const draft of [
      "http://json-schema.org/draft-04/schema#",
      "http://json-schema.org/draft-06/schema#",
      "http://json-schema.org/draft-07/schema#",
      "https://json-schema.org/draft/2019-09/schema",
      "https://json-schema.org/draft/2020-12/schema",
    ]) {
      expect(parseSchema("JSON", JSON.stringify({ $schema: draft, type: "object" })).type).toBe("JSON");
    }
  });

  it("accepts Protobuf's well-known types and proto2", () => {
    const proto =
      'syntax = "proto3"; import "google/protobuf/timestamp.proto"; message E { google.protobuf.Timestamp at = 1; }';
    expect(parseSchema("PROTOBUF", proto).recordName).toBe("E");
    expect(parseSchema("PROTOBUF", 'syntax = "proto2"; message M { required int32 a = 1; }').type).toBe(
      "PROTOBUF",
    );
  });
});
