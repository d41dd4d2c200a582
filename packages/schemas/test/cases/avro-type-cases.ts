import { enumOf, field, fixedOf, list, one, record } from "./avro-schemas.ts";
import { table, withReferences, type Row } from "./table.ts";

const str = (schema: unknown) => JSON.stringify(schema);
const ADDRESS_V1 = str({
  type: "record",
  name: "Address",
  namespace: "com.acme",
  fields: [field("street", "string")],
});
const ADDRESS_V2 = str({
  type: "record",
  name: "Address",
  namespace: "com.acme",
  fields: [field("street", "string"), field("zip", "string")],
});
const address = (text: string) => [
  { name: "com.acme.Address", schemaType: "AVRO" as const, schema: text, references: [] },
];
const usesAddress = (text: string) =>
  withReferences(record([field("home", "com.acme.Address")]), address(text));

/** Primitives and promotions, unions, enums, fixed, arrays, maps, recursion, references. */
const rows: Row[] = [
  ["int to long", "BACKWARD", [one("int")], one("long"), true],
  ["int to float", "BACKWARD", [one("int")], one("float"), true],
  ["int to double", "BACKWARD", [one("int")], one("double"), true],
  ["long to float", "BACKWARD", [one("long")], one("float"), true],
  ["long to double", "BACKWARD", [one("long")], one("double"), true],
  ["float to double", "BACKWARD", [one("float")], one("double"), true],
  ["string to bytes", "BACKWARD", [one("string")], one("bytes"), true],
  ["bytes to string", "BACKWARD", [one("bytes")], one("string"), true],
  ["long to int", "BACKWARD", [one("long")], one("int"), "TYPE_MISMATCH at /fields/0/type: reader type int"],
  ["double to float", "BACKWARD", [one("double")], one("float"), "TYPE_MISMATCH"],
  ["string to int", "BACKWARD", [one("string")], one("int"), "cannot read writer type string"],
  ["int to boolean", "BACKWARD", [one("int")], one("boolean"), "TYPE_MISMATCH"],
  ["null to int", "BACKWARD", [one("null")], one("int"), "TYPE_MISMATCH"],
  [
    "a logical type on the same primitive",
    "BACKWARD",
    [one("long")],
    one({ type: "long", logicalType: "timestamp-millis" }),
    true,
  ],
  ["a top-level primitive promoted", "BACKWARD", [str("int")], str("long"), true],
  ["a top-level primitive changed", "BACKWARD", [str("int")], str("string"), "TYPE_MISMATCH at /"],

  ["a field becomes a union with null", "BACKWARD", [one("string")], one(["null", "string"]), true],
  ["a union gains a branch", "BACKWARD", [one(["null", "string"])], one(["null", "string", "int"]), true],
  [
    "a union loses a branch",
    "BACKWARD",
    [one(["null", "string", "int"])],
    one(["null", "string"]),
    "MISSING_UNION_BRANCH at /fields/0/type/2",
  ],
  [
    "a union becomes its one remaining type",
    "BACKWARD",
    [one(["null", "string"])],
    one("string"),
    "TYPE_MISMATCH",
  ],
  ["union branches reordered", "BACKWARD", [one(["int", "string"])], one(["string", "int"]), true],
  ["a union read by a wider primitive", "BACKWARD", [one(["int", "long"])], one("long"), true],
  ["a union's long branch read by an int", "BACKWARD", [one(["int", "long"])], one("int"), "TYPE_MISMATCH"],
  ["an int read by a union with long", "BACKWARD", [one("int")], one(["null", "long"]), true],
  [
    "an int read by a union without a number",
    "BACKWARD",
    [one("int")],
    one(["null", "string"]),
    "MISSING_UNION_BRANCH",
  ],
  [
    "a record inside a union gains a field without default",
    "BACKWARD",
    [one(["null", { type: "record", name: "Part", fields: [field("x", "int")] }])],
    one(["null", { type: "record", name: "Part", fields: [field("x", "int"), field("y", "int")] }]),
    "lacking writer type record",
  ],
  [
    "a union gains a branch",
    "FORWARD",
    [one(["null", "string"])],
    one(["null", "string", "int"]),
    "MISSING_UNION_BRANCH",
  ],
  ["a union loses a branch", "FORWARD", [one(["null", "string", "int"])], one(["null", "string"]), true],
  ["a string becomes nullable", "FORWARD", [one("string")], one(["null", "string"]), "TYPE_MISMATCH"],
  ["a string becomes nullable", "FULL", [one("string")], one(["null", "string"]), "TYPE_MISMATCH"],

  ["an enum gains a symbol", "BACKWARD", [one(enumOf(["A", "B"]))], one(enumOf(["A", "B", "C"])), true],
  [
    "an enum loses a symbol",
    "BACKWARD",
    [one(enumOf(["A", "B", "C"]))],
    one(enumOf(["A", "B"])),
    "MISSING_ENUM_SYMBOLS at /fields/0/type/symbols",
  ],
  [
    "an enum loses a symbol, the reader having a default",
    "BACKWARD",
    [one(enumOf(["A", "B", "C"]))],
    one(enumOf(["A", "B"], { default: "A" })),
    true,
  ],
  [
    "an enum renamed",
    "BACKWARD",
    [one(enumOf(["A"]))],
    one({ ...enumOf(["A"]), name: "Colour" }),
    "NAME_MISMATCH at /fields/0/type/name",
  ],
  [
    "an enum renamed with an alias",
    "BACKWARD",
    [one(enumOf(["A"]))],
    one({ ...enumOf(["A"]), name: "Colour", aliases: ["com.acme.Color"] }),
    true,
  ],
  [
    "an enum's default changed",
    "BACKWARD",
    [one(enumOf(["A", "B"], { default: "A" }))],
    one(enumOf(["A", "B"], { default: "B" })),
    true,
  ],
  [
    "an enum gains a symbol",
    "FORWARD",
    [one(enumOf(["A", "B"]))],
    one(enumOf(["A", "B", "C"])),
    "MISSING_ENUM_SYMBOLS",
  ],
  [
    "an enum gains a symbol, old reader has a default",
    "FORWARD",
    [one(enumOf(["A", "B"], { default: "A" }))],
    one(enumOf(["A", "B", "C"], { default: "A" })),
    true,
  ],
  [
    "an enum gains a symbol",
    "FULL",
    [one(enumOf(["A", "B"]))],
    one(enumOf(["A", "B", "C"])),
    "lacks symbols [C]",
  ],

  [
    "fixed size changed",
    "BACKWARD",
    [one(fixedOf(4))],
    one(fixedOf(8)),
    "FIXED_SIZE_MISMATCH at /fields/0/type/size",
  ],
  ["fixed renamed", "BACKWARD", [one(fixedOf(4))], one(fixedOf(4, "Digest")), "NAME_MISMATCH"],
  ["fixed unchanged", "FULL", [one(fixedOf(16))], one(fixedOf(16)), true],
  ["fixed to bytes", "BACKWARD", [one(fixedOf(16))], one("bytes"), "TYPE_MISMATCH"],

  [
    "array items promoted",
    "BACKWARD",
    [one({ type: "array", items: "int" })],
    one({ type: "array", items: "long" }),
    true,
  ],
  [
    "array items narrowed",
    "BACKWARD",
    [one({ type: "array", items: "long" })],
    one({ type: "array", items: "int" }),
    "TYPE_MISMATCH at /fields/0/type/items",
  ],
  [
    "map values promoted",
    "BACKWARD",
    [one({ type: "map", values: "int" })],
    one({ type: "map", values: "long" }),
    true,
  ],
  [
    "map values promoted",
    "FORWARD",
    [one({ type: "map", values: "int" })],
    one({ type: "map", values: "long" }),
    "TYPE_MISMATCH at /fields/0/type/values",
  ],
  [
    "map values changed",
    "BACKWARD",
    [one({ type: "map", values: "string" })],
    one({ type: "map", values: "int" }),
    "TYPE_MISMATCH",
  ],
  [
    "array to map",
    "BACKWARD",
    [one({ type: "array", items: "string" })],
    one({ type: "map", values: "string" }),
    "reader type map",
  ],
  [
    "nullable array of records gains a defaulted field",
    "FULL",
    [
      one(["null", { type: "array", items: { type: "record", name: "Part", fields: [field("x", "int")] } }], {
        default: null,
      }),
    ],
    one(
      [
        "null",
        {
          type: "array",
          items: {
            type: "record",
            name: "Part",
            fields: [field("x", "int"), field("y", "int", { default: 1 })],
          },
        },
      ],
      { default: null },
    ),
    true,
  ],

  ["a recursive list, unchanged", "FULL", [list("int")], list("int"), true],
  ["a recursive list's head promoted", "BACKWARD", [list("int")], list("long"), true],
  [
    "a recursive list's head narrowed",
    "BACKWARD",
    [list("long")],
    list("int"),
    "TYPE_MISMATCH at /fields/0/type",
  ],

  ["a referenced record, unchanged", "FULL", [usesAddress(ADDRESS_V1)], usesAddress(ADDRESS_V1), true],
  [
    "a referenced record gains a field without default",
    "BACKWARD",
    [usesAddress(ADDRESS_V1)],
    usesAddress(ADDRESS_V2),
    `${"READER_FIELD_MISSING_DEFAULT_VALUE"} at /fields/0/type/fields/1`,
  ],
  [
    "a referenced record gains a field without default",
    "FORWARD",
    [usesAddress(ADDRESS_V1)],
    usesAddress(ADDRESS_V2),
    true,
  ],

  [
    "int to long, only version 1 was a string",
    "BACKWARD_TRANSITIVE",
    [one("string"), one("int")],
    one("long"),
    "version 1: TYPE_MISMATCH",
  ],
  ["int to long after a string, latest only", "BACKWARD", [one("string"), one("int")], one("long"), true],
  ["promotions chain", "BACKWARD_TRANSITIVE", [one("int"), one("long")], one("double"), true],
  ["narrowing back to int", "FORWARD_TRANSITIVE", [one("long"), one("double")], one("int"), true],
  [
    "narrowing back against a bytes version 1",
    "FORWARD_TRANSITIVE",
    [one("bytes"), one("long")],
    one("int"),
    "version 1: TYPE_MISMATCH",
  ],
  ["string and bytes both ways", "FULL_TRANSITIVE", [one("string"), one("bytes")], one("string"), true],
  [
    "int after a long version 1",
    "FULL_TRANSITIVE",
    [one("long"), one("int")],
    one("int"),
    "version 1: TYPE_MISMATCH",
  ],
  ["an enum loses a symbol", "NONE", [one(enumOf(["A", "B", "C"]))], one(enumOf(["A"])), true],
];

export const avroTypeCases = table("AVRO", rows);
