import { table, withReferences, type Row } from "./table.ts";

/** A proto3 file of package acme with these declarations. */
const proto = (body: string, pkg = "acme") => `syntax = "proto3";\npackage ${pkg};\n${body}\n`;
const proto2 = (body: string) => `syntax = "proto2";\npackage acme;\n${body}\n`;
/** A message Widget with these fields. */
const widget = (fields: string) => proto(`message Widget {\n${fields}\n}`);

const BASE = widget("string name = 1; int32 count = 2;");
const money = (units: string) =>
  `syntax = "proto3";\npackage acme.money;\nmessage Money { ${units} units = 1; string currency = 2; }\n`;
const usesMoney = (units: string) =>
  withReferences(
    `syntax = "proto3";\npackage acme;\nimport "acme/money.proto";\nmessage Order { acme.money.Money total = 1; }\n`,
    [{ name: "acme/money.proto", schemaType: "PROTOBUF", schema: money(units), references: [] }],
  );
const timestamped = (type: string, file: string) =>
  `syntax = "proto3";\npackage acme;\nimport "google/protobuf/${file}.proto";\nmessage Event { google.protobuf.${type} at = 1; }\n`;

/** Confluent's Protobuf rules, plus renumbering and reserved numbers. */
const rows: Row[] = [
  [
    "identical, comments and spacing aside",
    "FULL",
    [BASE],
    `// the widget\n${BASE.replace("int32 count = 2;", "int32   count = 2; // how many")}`,
    true,
  ],
  ["a field added", "BACKWARD", [BASE], widget("string name = 1; int32 count = 2; bool big = 3;"), true],
  ["a field removed", "BACKWARD", [BASE], widget("string name = 1;"), true],
  ["a field removed and its number reserved", "FULL", [BASE], widget("reserved 2; string name = 1;"), true],
  ["a field renamed", "BACKWARD", [BASE], widget("string title = 1; int32 count = 2;"), true],
  ["int32 to int64", "BACKWARD", [BASE], widget("string name = 1; int64 count = 2;"), true],
  [
    "int32 to uint64 and bool",
    "FULL",
    [widget("int32 a = 1; int32 b = 2;")],
    widget("uint64 a = 1; bool b = 2;"),
    true,
  ],
  [
    "int32 to sint32",
    "BACKWARD",
    [BASE],
    widget("string name = 1; sint32 count = 2;"),
    "FIELD_SCALAR_KIND_CHANGED at #/Widget/2",
  ],
  ["sint32 to sint64", "BACKWARD", [widget("sint32 a = 1;")], widget("sint64 a = 1;"), true],
  ["string to bytes", "FULL", [BASE], widget("bytes name = 1; int32 count = 2;"), true],
  ["fixed32 to sfixed32", "BACKWARD", [widget("fixed32 a = 1;")], widget("sfixed32 a = 1;"), true],
  [
    "fixed32 to fixed64",
    "BACKWARD",
    [widget("fixed32 a = 1;")],
    widget("fixed64 a = 1;"),
    "FIELD_SCALAR_KIND_CHANGED",
  ],
  [
    "float to double",
    "BACKWARD",
    [widget("float a = 1;")],
    widget("double a = 1;"),
    "FIELD_SCALAR_KIND_CHANGED",
  ],
  [
    "string to int32",
    "FORWARD",
    [BASE],
    widget("int32 name = 1; int32 count = 2;"),
    "FIELD_SCALAR_KIND_CHANGED at #/Widget/1",
  ],
  [
    "an enum field to int32",
    "BACKWARD",
    [proto("enum Size { S = 0; L = 1; }\nmessage Widget { Size size = 1; }")],
    proto("enum Size { S = 0; L = 1; }\nmessage Widget { int32 size = 1; }"),
    true,
  ],
  [
    "a scalar to a message",
    "BACKWARD",
    [widget("string part = 1; message Part { string id = 1; }")],
    widget("Part part = 1; message Part { string id = 1; }"),
    "FIELD_KIND_CHANGED",
  ],
  [
    "a message field to another message type",
    "BACKWARD",
    [widget("A part = 1; message A { string id = 1; } message B { string id = 1; }")],
    widget("B part = 1; message A { string id = 1; } message B { string id = 1; }"),
    "FIELD_NAMED_TYPE_CHANGED at #/Widget/1",
  ],
  [
    "a nested message's field changes type",
    "BACKWARD",
    [widget("Part part = 1; message Part { string id = 1; }")],
    widget("Part part = 1; message Part { double id = 1; }"),
    "FIELD_SCALAR_KIND_CHANGED at #/Widget/Part/1",
  ],
  [
    "a map's values change type",
    "BACKWARD",
    [widget("map<string, int32> counts = 1;")],
    widget("map<string, string> counts = 1;"),
    "FIELD_SCALAR_KIND_CHANGED",
  ],
  [
    "a map's values widened",
    "BACKWARD",
    [widget("map<string, int32> counts = 1;")],
    widget("map<string, int64> counts = 1;"),
    true,
  ],
  [
    "a map to a scalar",
    "BACKWARD",
    [widget("map<string, int32> counts = 1;")],
    widget("int32 counts = 1;"),
    "FIELD_KIND_CHANGED",
  ],
  [
    "repeated int32 to int32",
    "BACKWARD",
    [widget("repeated int32 a = 1;")],
    widget("int32 a = 1;"),
    "FIELD_NUMERIC_LABEL_CHANGED",
  ],
  [
    "repeated string to string",
    "BACKWARD",
    [widget("repeated string a = 1;")],
    widget("string a = 1;"),
    true,
  ],
  [
    "a field made proto3-optional",
    "FULL",
    [BASE],
    widget("string name = 1; optional int32 count = 2;"),
    true,
  ],
  [
    "a required field added",
    "BACKWARD",
    [proto2("message Widget { optional string name = 1; }")],
    proto2("message Widget { optional string name = 1; required int32 count = 2; }"),
    "REQUIRED_FIELD_ADDED at #/Widget/2",
  ],
  [
    "a required field removed",
    "BACKWARD",
    [proto2("message Widget { required string name = 1; optional int32 count = 2; }")],
    proto2("message Widget { optional int32 count = 2; }"),
    "REQUIRED_FIELD_REMOVED",
  ],
  [
    "a required field added",
    "FORWARD",
    [proto2("message Widget { optional string name = 1; }")],
    proto2("message Widget { optional string name = 1; required int32 count = 2; }"),
    "REQUIRED_FIELD_REMOVED",
  ],

  [
    "one field moved into a new oneof",
    "BACKWARD",
    [BASE],
    widget("int32 count = 2; oneof label { string name = 1; }"),
    true,
  ],
  [
    "two fields moved into one oneof",
    "BACKWARD",
    [BASE],
    widget("oneof label { string name = 1; int32 count = 2; }"),
    "MULTIPLE_FIELDS_MOVED_TO_ONEOF at #/Widget/label",
  ],
  [
    "a field moved into an existing oneof",
    "BACKWARD",
    [widget("int32 count = 2; oneof label { string name = 1; }")],
    widget("oneof label { string name = 1; int32 count = 2; }"),
    "FIELD_MOVED_TO_EXISTING_ONEOF",
  ],
  [
    "a new oneof of new fields",
    "BACKWARD",
    [BASE],
    widget("string name = 1; int32 count = 2; oneof extra { string note = 3; int32 rank = 4; }"),
    true,
  ],
  [
    "a field added to a oneof",
    "BACKWARD",
    [widget("oneof label { string name = 1; }")],
    widget("oneof label { string name = 1; int32 id = 2; }"),
    true,
  ],
  [
    "a field added to a oneof",
    "FORWARD",
    [widget("oneof label { string name = 1; }")],
    widget("oneof label { string name = 1; int32 id = 2; }"),
    "ONEOF_FIELD_REMOVED at #/Widget/label/2",
  ],
  [
    "a field removed from a oneof",
    "BACKWARD",
    [widget("oneof label { string name = 1; int32 id = 2; }")],
    widget("oneof label { string name = 1; }"),
    "ONEOF_FIELD_REMOVED",
  ],
  [
    "a field moved out of a oneof",
    "BACKWARD",
    [widget("oneof label { string name = 1; int32 id = 2; }")],
    widget("int32 id = 2; oneof label { string name = 1; }"),
    true,
  ],

  [
    "a message removed",
    "BACKWARD",
    [proto("message Widget { string name = 1; }\nmessage Gadget { string name = 1; }")],
    proto("message Widget { string name = 1; }"),
    "MESSAGE_REMOVED at #/Gadget",
  ],
  ["a message added", "BACKWARD", [BASE], `${BASE}message Gadget { string name = 1; }\n`, true],
  ["a message added", "FORWARD", [BASE], `${BASE}message Gadget { string name = 1; }\n`, "MESSAGE_REMOVED"],
  [
    "messages reordered",
    "FULL",
    [proto("message A { int32 x = 1; }\nmessage B { int32 y = 1; }")],
    proto("message B { int32 y = 1; }\nmessage A { int32 x = 1; }"),
    true,
  ],
  [
    "the package changed",
    "BACKWARD",
    [BASE],
    BASE.replace("package acme;", "package acme.v2;"),
    "PACKAGE_CHANGED",
  ],
  [
    "an enum value added and one removed",
    "FULL",
    [proto("enum Size { S = 0; M = 1; L = 2; }")],
    proto("enum Size { S = 0; L = 2; XL = 3; }"),
    true,
  ],
  [
    "an enum removed",
    "BACKWARD",
    [proto("enum Size { S = 0; }\nmessage Widget { string name = 1; }")],
    proto("message Widget { string name = 1; }"),
    true,
  ],

  [
    "a field renumbered",
    "BACKWARD",
    [BASE],
    widget("string name = 1; int32 count = 3;"),
    "FIELD_NUMBER_CHANGED at #/Widget/count",
  ],
  [
    "a reserved number reused",
    "BACKWARD",
    [widget("reserved 3 to 5; string name = 1;")],
    widget("string name = 1; int32 size = 4;"),
    "RESERVED_FIELD_NUMBER_REUSED at #/Widget/4",
  ],
  [
    "a reserved number reused",
    "FORWARD",
    [widget("reserved 3; string name = 1;")],
    widget("string name = 1; int32 size = 3;"),
    "RESERVED_FIELD_NUMBER_REUSED",
  ],
  [
    "a recursive message, unchanged",
    "FULL",
    [proto("message Node { string value = 1; repeated Node children = 2; }")],
    proto("message Node { string value = 1; repeated Node children = 2; }"),
    true,
  ],
  [
    "a recursive message's value changes type",
    "BACKWARD",
    [proto("message Node { string value = 1; repeated Node children = 2; }")],
    proto("message Node { int64 value = 1; repeated Node children = 2; }"),
    "FIELD_SCALAR_KIND_CHANGED at #/Node/1",
  ],
  ["an imported message, unchanged", "FULL", [usesMoney("int64")], usesMoney("int64"), true],
  [
    "an imported message changes a field's type",
    "BACKWARD",
    [usesMoney("int64")],
    usesMoney("string"),
    "FIELD_NAMED_TYPE_CHANGED at #/Order/1",
  ],
  [
    "a well-known type swapped",
    "BACKWARD",
    [timestamped("Timestamp", "timestamp")],
    timestamped("Duration", "duration"),
    "FIELD_NAMED_TYPE_CHANGED",
  ],

  [
    "a number re-used with another type after its removal",
    "BACKWARD_TRANSITIVE",
    [BASE, widget("string name = 1;")],
    widget("string name = 1; string count = 2;"),
    "version 1: FIELD_SCALAR_KIND_CHANGED",
  ],
  [
    "a number re-used after its removal, latest only",
    "BACKWARD",
    [BASE, widget("string name = 1;")],
    widget("string name = 1; string count = 2;"),
    true,
  ],
  [
    "a number re-used after its removal",
    "FORWARD_TRANSITIVE",
    [BASE, widget("string name = 1;")],
    widget("string name = 1; string count = 2;"),
    "version 1: FIELD_SCALAR_KIND_CHANGED",
  ],
  [
    "fields added one by one",
    "FORWARD_TRANSITIVE",
    [widget("string name = 1;"), BASE],
    widget("string name = 1; int32 count = 2; bool big = 3;"),
    true,
  ],
  [
    "a number re-used after its removal",
    "FULL_TRANSITIVE",
    [BASE, widget("string name = 1;")],
    widget("string name = 1; string count = 2;"),
    "version 1: FIELD_SCALAR_KIND_CHANGED",
  ],
  [
    "fields added one by one",
    "FULL_TRANSITIVE",
    [widget("string name = 1;"), BASE],
    widget("string name = 1; int32 count = 2; bool big = 3;"),
    true,
  ],
  ["a type change", "NONE", [BASE], widget("double name = 1;"), true],
];

export const protobufCases = table("PROTOBUF", rows);
