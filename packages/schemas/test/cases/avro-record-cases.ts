import { enumOf, field, inner, one, record, S1, S2, S3, S8 } from "./avro-schemas.ts";
import { table, type Row } from "./table.ts";

const MISSING_DEFAULT = "READER_FIELD_MISSING_DEFAULT_VALUE";

/** Records: fields added and removed, defaults, aliases, names; every level, transitive ones included. */
const rows: Row[] = [
  ["adding a field with a default", "BACKWARD", [S1], S2, true],
  ["adding a field without a default", "BACKWARD", [S1], S3, `${MISSING_DEFAULT} at /fields/1`],
  [
    "renaming a field with an alias of the old name",
    "BACKWARD",
    [S1],
    record([field("f1_new", "string", { aliases: ["f1"] })]),
    true,
  ],
  [
    "renaming a field without an alias",
    "BACKWARD",
    [S1],
    record([field("f1_new", "string")]),
    'reader field "f1_new"',
  ],
  [
    "an alias on the writer's field does not count",
    "BACKWARD",
    [record([field("old", "int", { aliases: ["new"] })])],
    record([field("new", "int")]),
    MISSING_DEFAULT,
  ],
  ["removing a field", "BACKWARD", [S2], S1, true],
  ["removing a field's default", "BACKWARD", [S2], S3, true],
  ["adding a default to a field", "BACKWARD", [S3], S2, true],
  [
    "changing a default",
    "BACKWARD",
    [S2],
    record([field("f1", "string"), field("f2", "string", { default: "bar" })]),
    true,
  ],
  [
    "changing doc",
    "BACKWARD",
    [S1],
    record([field("f1", "string", { doc: "the first" })], { doc: "a widget" }),
    true,
  ],
  [
    "a nullable field with a null default",
    "BACKWARD",
    [S1],
    record([field("f1", "string"), field("note", ["null", "string"], { default: null })]),
    true,
  ],
  [
    "adding a field to an empty record",
    "BACKWARD",
    [record([])],
    record([field("a", "int")]),
    `${MISSING_DEFAULT} at /fields/0`,
  ],
  [
    "several fields in a real record, one added with null default",
    "BACKWARD",
    [
      record([
        field("provider", "string"),
        field("name", ["null", "string"], { default: null }),
        field("price", ["null", "double"], { default: null }),
      ]),
    ],
    record([
      field("provider", "string"),
      field("name", ["null", "string"], { default: null }),
      field("price", ["null", "double"], { default: null }),
      field("status", ["null", "string"], { default: null }),
    ]),
    true,
  ],
  [
    "renaming the record",
    "BACKWARD",
    [S1],
    JSON.stringify({ ...JSON.parse(S1), name: "Gadget" }),
    "NAME_MISMATCH at /name",
  ],
  [
    "renaming the record with an alias of the old full name",
    "BACKWARD",
    [S1],
    JSON.stringify({ ...JSON.parse(S1), name: "Gadget", aliases: ["com.acme.Widget"] }),
    true,
  ],
  [
    "changing only the namespace",
    "BACKWARD",
    [S1],
    JSON.stringify({ ...JSON.parse(S1), namespace: "org.other" }),
    true,
  ],
  [
    "a nested record gains a field without a default",
    "BACKWARD",
    [one(inner([field("x", "int")]))],
    one(inner([field("x", "int"), field("y", "int")])),
    `${MISSING_DEFAULT} at /fields/0/type/fields/1`,
  ],
  [
    "a nested record gains a field with a default",
    "BACKWARD",
    [one(inner([field("x", "int")]))],
    one(inner([field("x", "int"), field("y", "int", { default: 0 })])),
    true,
  ],
  [
    "a nested record changes a field's type",
    "BACKWARD",
    [one(inner([field("x", "string")]))],
    one(inner([field("x", "int")])),
    "TYPE_MISMATCH at /fields/0/type/fields/0/type",
  ],
  [
    "a nested record is renamed",
    "BACKWARD",
    [one(inner([field("x", "int")]))],
    one(inner([field("x", "int")], "Piece")),
    "NAME_MISMATCH at /fields/0/type/name",
  ],
  [
    "an error type read as a record",
    "BACKWARD",
    [
      JSON.stringify({
        type: "error",
        name: "Widget",
        namespace: "com.acme",
        fields: [field("f1", "string")],
      }),
    ],
    S1,
    true,
  ],
  [
    "the message names the direction",
    "BACKWARD",
    [S1],
    S3,
    "(the new schema) has no default value and is missing from version 1",
  ],

  ["adding a field without a default (old readers ignore it)", "FORWARD", [S1], S3, true],
  ["removing a field that has a default", "FORWARD", [S2], S1, true],
  ["removing a field without a default", "FORWARD", [S3], S1, `${MISSING_DEFAULT} at /fields/1`],
  ["forward names the old version as the reader", "FORWARD", [S3], S1, 'reader field "f2" (version 1)'],
  ["removing a field's default", "FORWARD", [S2], S3, true],
  [
    "renaming a field the old reader needs",
    "FORWARD",
    [S1],
    record([field("f1_new", "string", { aliases: ["f1"] })]),
    MISSING_DEFAULT,
  ],

  ["iteratively adding fields with defaults", "BACKWARD_TRANSITIVE", [S1, S2], S8, true],
  [
    "removing a default: fine against the latest, not against version 1",
    "BACKWARD_TRANSITIVE",
    [S1, S2],
    S3,
    `version 1: ${MISSING_DEFAULT}`,
  ],
  ["removing a default checks only the latest", "BACKWARD", [S1, S2], S3, true],
  ["iteratively removing fields with defaults", "FORWARD_TRANSITIVE", [S8, S2], S1, true],
  [
    "dropping a field only version 1 needs",
    "FORWARD_TRANSITIVE",
    [S3, S2],
    S1,
    `version 1: ${MISSING_DEFAULT}`,
  ],
  ["dropping a field only version 1 needs, latest only", "FORWARD", [S3, S2], S1, true],

  ["adding a field with a default", "FULL", [S1], S2, true],
  ["removing a field with a default", "FULL", [S2], S1, true],
  ["adding a field without a default", "FULL", [S1], S3, MISSING_DEFAULT],
  ["removing a field without a default", "FULL", [S3], S1, MISSING_DEFAULT],
  ["adding a default", "FULL", [S3], S2, true],
  ["fields with defaults, added and removed across versions", "FULL_TRANSITIVE", [S1, S2], S8, true],
  [
    "a field without a default against version 1 only",
    "FULL_TRANSITIVE",
    [S1, S2],
    S3,
    `version 1: ${MISSING_DEFAULT}`,
  ],
  ["a field without a default, latest only", "FULL", [S1, S2], S3, true],
  [
    "an enum field gains a symbol",
    "FULL_TRANSITIVE",
    [one(enumOf(["A", "B"]))],
    one(enumOf(["A", "B", "C"])),
    "MISSING_ENUM_SYMBOLS",
  ],

  ["anything goes", "NONE", [S1], one("int"), true],
  ["a record replaced by a string", "NONE", [S1, S3], JSON.stringify("string"), true],
];

export const avroRecordCases = table("AVRO", rows);
