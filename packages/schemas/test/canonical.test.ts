import { describe, expect, it } from "vitest";
import { parseSchema, type SchemaType } from "../src/index.ts";

function same(type: SchemaType, a: string, b: string): void {
  const first = parseSchema(type, a);
  const second = parseSchema(type, b);
  expect(second.canonical).toBe(first.canonical);
  expect(second.fingerprint).toBe(first.fingerprint);
}

function different(type: SchemaType, a: string, b: string): void {
  const first = parseSchema(type, a);
  const second = parseSchema(type, b);
  expect(second.canonical).not.toBe(first.canonical);
  expect(second.fingerprint).not.toBe(first.fingerprint);
}

const WIDGET = {
  type: "record",
  name: "Widget",
  namespace: "com.acme",
  doc: "a widget",
  fields: [
    { name: "id", type: "string" },
    { name: "size", type: { type: "enum", name: "Size", symbols: ["S", "L"], default: "S" }, default: "S" },
    { name: "note", type: ["null", "string"], default: null, aliases: ["remark"] },
  ],
};

describe("canonical forms: the same schema", () => {
  it("AVRO: whitespace, key order, namespace spelled out or inherited", () => {
    const reordered = {
      fields: WIDGET.fields.map((field) => Object.fromEntries(Object.entries(field).reverse())),
      namespace: "com.acme",
      doc: "a widget",
      name: "Widget",
      type: "record",
    };
    same("AVRO", JSON.stringify(WIDGET), JSON.stringify(reordered, null, 4));
    same(
      "AVRO",
      JSON.stringify(WIDGET),
      JSON.stringify({ ...WIDGET, name: "com.acme.Widget", namespace: undefined }),
    );
    same("AVRO", '"string"', '{"type": "string"}');
  });

  it("JSON: whitespace and key order", () => {
    same(
      "JSON",
      '{"type":"object","properties":{"a":{"type":"string","maxLength":3}},"required":["a"]}',
      '{\n  "required": ["a"],\n  "properties": { "a": { "maxLength": 3, "type": "string" } },\n  "type": "object"\n}',
    );
  });

  it("PROTOBUF: whitespace, comments, option order", () => {
    same(
      "PROTOBUF",
      'syntax = "proto3"; package acme; option java_package = "a"; option java_multiple_files = true; message M { string a = 1 [deprecated = true]; }',
      '// widgets\nsyntax = "proto3";\npackage acme;\n\noption java_multiple_files = true;\noption java_package = "a";\n\nmessage M {\n  /* the a */ string   a = 1 [deprecated=true];\n}\n',
    );
  });
});

describe("canonical forms: different schemas", () => {
  it("AVRO: a changed default, alias, doc, logical type or field order", () => {
    const text = JSON.stringify(WIDGET);
    const withField = (index: number, change: object) =>
      JSON.stringify({
        ...WIDGET,
        fields: WIDGET.fields.map((f, i) => (i === index ? { ...f, ...change } : f)),
      });
    different("AVRO", text, withField(1, { default: "L" }));
    different("AVRO", text, withField(2, { aliases: ["comment"] }));
    different("AVRO", text, JSON.stringify({ ...WIDGET, doc: "another widget" }));
    different("AVRO", text, withField(0, { type: { type: "string", logicalType: "uuid" } }));
    different("AVRO", text, JSON.stringify({ ...WIDGET, fields: [...WIDGET.fields].reverse() }));
  });

  it("JSON: a changed default or title", () => {
    different("JSON", '{"type":"string","default":"a"}', '{"type":"string","default":"b"}');
    different("JSON", '{"type":"string","title":"A"}', '{"type":"string","title":"B"}');
  });

  it("PROTOBUF: a renamed field, another number, reordered messages", () => {
    different(
      "PROTOBUF",
      'syntax = "proto3"; message M { string a = 1; }',
      'syntax = "proto3"; message M { string b = 1; }',
    );
    different(
      "PROTOBUF",
      'syntax = "proto3"; message M { string a = 1; }',
      'syntax = "proto3"; message M { string a = 2; }',
    );
    different(
      "PROTOBUF",
      'syntax = "proto3"; message A { string a = 1; } message B { string b = 1; }',
      'syntax = "proto3"; message B { string b = 1; } message A { string a = 1; }',
    );
  });

  it("the same text as two types is two schemas", () => {
    const text = '{"type":"string"}';
    expect(parseSchema("AVRO", text).fingerprint).not.toBe(parseSchema("JSON", text).fingerprint);
  });
});
