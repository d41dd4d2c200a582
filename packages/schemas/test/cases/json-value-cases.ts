import { a, I, N, obj, S, str } from "./json-schemas.ts";
import { table, withReferences, type Row } from "./table.ts";

const arr = (more: object) => a({ type: "array", ...more });
const tuple = (items: unknown[], more: object = {}) => arr({ items, ...more });
const defs = (name: unknown) =>
  str({ type: "object", properties: { a: { $ref: "#/definitions/name" } }, definitions: { name } });
const tree = (value: unknown) =>
  str({
    $ref: "#/definitions/node",
    definitions: {
      node: {
        type: "object",
        properties: { value, children: { type: "array", items: { $ref: "#/definitions/node" } } },
      },
    },
  });
const customer = (name: unknown) => [
  {
    name: "customer.json",
    schemaType: "JSON" as const,
    schema: str({ type: "object", properties: { name } }),
    references: [],
  },
];
const usesCustomer = (name: unknown) =>
  withReferences(obj({ buyer: { $ref: "customer.json" } }), customer(name));

/** Strings, numbers, enums, arrays, combinations, $ref and drafts. */
const rows: Row[] = [
  [
    "maxLength lowered",
    "BACKWARD",
    [a({ ...S, maxLength: 10 })],
    a({ ...S, maxLength: 5 }),
    "MAX_LENGTH_DECREASED at #/properties/a/maxLength",
  ],
  ["maxLength raised", "BACKWARD", [a({ ...S, maxLength: 5 })], a({ ...S, maxLength: 10 }), true],
  ["maxLength added", "BACKWARD", [a(S)], a({ ...S, maxLength: 5 }), "MAX_LENGTH_ADDED"],
  ["maxLength removed", "BACKWARD", [a({ ...S, maxLength: 5 })], a(S), true],
  [
    "minLength raised",
    "BACKWARD",
    [a({ ...S, minLength: 1 })],
    a({ ...S, minLength: 3 }),
    "MIN_LENGTH_INCREASED",
  ],
  ["minLength lowered", "BACKWARD", [a({ ...S, minLength: 3 })], a({ ...S, minLength: 1 }), true],
  ["a pattern added", "BACKWARD", [a(S)], a({ ...S, pattern: "^[a-z]+$" }), "PATTERN_ADDED"],
  ["a pattern removed", "BACKWARD", [a({ ...S, pattern: "^[a-z]+$" })], a(S), true],
  [
    "a pattern changed",
    "BACKWARD",
    [a({ ...S, pattern: "^[a-z]+$" })],
    a({ ...S, pattern: "^[a-z0-9]+$" }),
    "PATTERN_CHANGED",
  ],
  [
    "maxLength raised",
    "FORWARD",
    [a({ ...S, maxLength: 5 })],
    a({ ...S, maxLength: 10 }),
    "MAX_LENGTH_DECREASED",
  ],
  [
    "maxLength changed",
    "FULL",
    [a({ ...S, maxLength: 5 })],
    a({ ...S, maxLength: 10 }),
    "MAX_LENGTH_DECREASED",
  ],
  ["maximum lowered", "BACKWARD", [a({ ...N, maximum: 100 })], a({ ...N, maximum: 10 }), "MAXIMUM_DECREASED"],
  ["maximum removed", "BACKWARD", [a({ ...N, maximum: 100 })], a(N), true],
  ["minimum raised", "BACKWARD", [a({ ...I, minimum: 0 })], a({ ...I, minimum: 1 }), "MINIMUM_INCREASED"],
  ["exclusiveMinimum added", "BACKWARD", [a(N)], a({ ...N, exclusiveMinimum: 0 }), "EXCLUSIVE_MINIMUM_ADDED"],
  [
    "exclusiveMaximum raised",
    "BACKWARD",
    [a({ ...N, exclusiveMaximum: 1 })],
    a({ ...N, exclusiveMaximum: 2 }),
    true,
  ],
  [
    "multipleOf made coarser",
    "BACKWARD",
    [a({ ...I, multipleOf: 2 })],
    a({ ...I, multipleOf: 4 }),
    "MULTIPLE_OF_EXPANDED",
  ],
  ["multipleOf made finer", "BACKWARD", [a({ ...I, multipleOf: 4 })], a({ ...I, multipleOf: 2 }), true],
  ["multipleOf added", "BACKWARD", [a(N)], a({ ...N, multipleOf: 0.5 }), "MULTIPLE_OF_ADDED"],
  [
    "draft-04 boolean exclusiveMaximum lowered",
    "BACKWARD",
    [
      str({
        $schema: "http://json-schema.org/draft-04/schema#",
        type: "number",
        maximum: 10,
        exclusiveMaximum: true,
      }),
    ],
    str({
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "number",
      maximum: 5,
      exclusiveMaximum: true,
    }),
    "EXCLUSIVE_MAXIMUM_DECREASED",
  ],

  [
    "an enum extended",
    "BACKWARD",
    [a({ enum: ["red", "green"] })],
    a({ enum: ["red", "green", "blue"] }),
    true,
  ],
  [
    "an enum narrowed",
    "BACKWARD",
    [a({ enum: ["red", "green", "blue"] })],
    a({ enum: ["red", "green"] }),
    "ENUM_ARRAY_NARROWED at #/properties/a/enum",
  ],
  [
    "an enum changed",
    "BACKWARD",
    [a({ enum: ["red", "green"] })],
    a({ enum: ["red", "blue"] }),
    "ENUM_ARRAY_CHANGED",
  ],
  ["a string's enum dropped", "BACKWARD", [a({ ...S, enum: ["red"] })], a(S), true],
  [
    "a string given an enum",
    "BACKWARD",
    [a(S)],
    a({ ...S, enum: ["red"] }),
    "TYPE_CHANGED at #/properties/a",
  ],
  [
    "an allOf reduced to one of its schemas",
    "BACKWARD",
    [a({ allOf: [S, { maxLength: 3 }] })],
    a({ ...S, maxLength: 5 }),
    true,
  ],
  [
    "an enum extended",
    "FORWARD",
    [a({ enum: ["red", "green"] })],
    a({ enum: ["red", "green", "blue"] }),
    "ENUM_ARRAY_NARROWED",
  ],
  [
    "a const changed",
    "BACKWARD",
    [a({ const: "v1" })],
    a({ const: "v2" }),
    "ENUM_ARRAY_CHANGED at #/properties/a/const",
  ],

  [
    "array items changed type",
    "BACKWARD",
    [arr({ items: S })],
    arr({ items: I }),
    "TYPE_CHANGED at #/properties/a/items",
  ],
  ["array items widened", "BACKWARD", [arr({ items: I })], arr({ items: N }), true],
  [
    "maxItems lowered",
    "BACKWARD",
    [arr({ items: S, maxItems: 10 })],
    arr({ items: S, maxItems: 3 }),
    "MAX_ITEMS_DECREASED",
  ],
  ["minItems added", "BACKWARD", [arr({ items: S })], arr({ items: S, minItems: 1 }), "MIN_ITEMS_ADDED"],
  [
    "uniqueItems added",
    "BACKWARD",
    [arr({ items: S })],
    arr({ items: S, uniqueItems: true }),
    "UNIQUE_ITEMS_ADDED",
  ],
  ["uniqueItems removed", "BACKWARD", [arr({ items: S, uniqueItems: true })], arr({ items: S }), true],
  [
    "a tuple item added to an open tuple",
    "BACKWARD",
    [tuple([S])],
    tuple([S, I]),
    "ITEM_ADDED_TO_OPEN_CONTENT_MODEL at #/properties/a/items/1",
  ],
  [
    "a tuple item added to a closed tuple",
    "BACKWARD",
    [tuple([S], { additionalItems: false })],
    tuple([S, I], { additionalItems: false }),
    true,
  ],
  [
    "a tuple item removed from a closed tuple",
    "BACKWARD",
    [tuple([S, I], { additionalItems: false })],
    tuple([S], { additionalItems: false }),
    "ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL",
  ],
  [
    "a 2020-12 prefixItems item removed from an open tuple",
    "BACKWARD",
    [str({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", prefixItems: [S, I] })],
    str({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", prefixItems: [S] }),
    true,
  ],
  [
    "a 2020-12 closed tuple loses an item",
    "BACKWARD",
    [
      str({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "array",
        prefixItems: [S, I],
        items: false,
      }),
    ],
    str({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [S],
      items: false,
    }),
    "ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL",
  ],

  [
    "oneOf gains a subschema",
    "BACKWARD",
    [a({ oneOf: [S, I] })],
    a({ oneOf: [S, I, { type: "boolean" }] }),
    true,
  ],
  ["oneOf loses a subschema", "BACKWARD", [a({ oneOf: [S, I] })], a({ oneOf: [S] }), "SUM_TYPE_NARROWED"],
  [
    "allOf gains a subschema",
    "BACKWARD",
    [a({ allOf: [S] })],
    a({ allOf: [S, { maxLength: 3 }] }),
    "PRODUCT_TYPE_EXTENDED",
  ],
  ["allOf loses a subschema", "BACKWARD", [a({ allOf: [S, { maxLength: 3 }] })], a({ allOf: [S] }), true],
  ["oneOf to anyOf", "BACKWARD", [a({ oneOf: [S, I] })], a({ anyOf: [S, I] }), true],
  ["anyOf to oneOf", "BACKWARD", [a({ anyOf: [S, I] })], a({ oneOf: [S, I] }), "COMBINED_TYPE_CHANGED"],
  [
    "a oneOf subschema narrowed",
    "BACKWARD",
    [a({ oneOf: [S, I] })],
    a({ oneOf: [{ ...S, maxLength: 2 }, I] }),
    "COMBINED_TYPE_SUBSCHEMAS_CHANGED",
  ],
  ["a string becomes one of string or integer", "BACKWARD", [a(S)], a({ oneOf: [S, I] }), true],
  ["a not schema narrowed", "BACKWARD", [a({ not: { type: ["string", "integer"] } })], a({ not: S }), true],
  [
    "a not schema extended",
    "BACKWARD",
    [a({ not: S })],
    a({ not: { type: ["string", "integer"] } }),
    "NOT_TYPE_EXTENDED",
  ],

  [
    "a $ref'd definition narrowed",
    "BACKWARD",
    [defs({ ...S, maxLength: 10 })],
    defs({ ...S, maxLength: 5 }),
    "MAX_LENGTH_DECREASED at #/properties/a/maxLength",
  ],
  [
    "a $ref'd definition widened",
    "BACKWARD",
    [defs({ ...S, maxLength: 5 })],
    defs({ ...S, maxLength: 10 }),
    true,
  ],
  ["a recursive tree, unchanged", "FULL", [tree(S)], tree(S), true],
  [
    "a recursive tree's values change type",
    "BACKWARD",
    [tree(S)],
    tree(I),
    "TYPE_CHANGED at #/properties/value",
  ],
  ["a referenced document, unchanged", "FULL", [usesCustomer(S)], usesCustomer(S), true],
  [
    "a referenced document narrowed",
    "BACKWARD",
    [usesCustomer(S)],
    usesCustomer({ ...S, maxLength: 3 }),
    "MAX_LENGTH_ADDED at #/properties/buyer/properties/name/maxLength",
  ],

  [
    "maxLength tightened over versions",
    "BACKWARD_TRANSITIVE",
    [a(S), a({ ...S, maxLength: 5 })],
    a({ ...S, maxLength: 5 }),
    "version 1: MAX_LENGTH_ADDED",
  ],
  [
    "maxLength tightened over versions, latest only",
    "BACKWARD",
    [a(S), a({ ...S, maxLength: 5 })],
    a({ ...S, maxLength: 5 }),
    true,
  ],
  [
    "maxLength loosened over versions",
    "FORWARD_TRANSITIVE",
    [a({ ...S, maxLength: 5 }), a(S)],
    a(S),
    "version 1: MAX_LENGTH_ADDED",
  ],
  [
    "an enum kept as it is",
    "FORWARD_TRANSITIVE",
    [a({ enum: ["x"] }), a({ enum: ["x"] })],
    a({ enum: ["x"] }),
    true,
  ],
  [
    "a pattern version 1 did not have",
    "FULL_TRANSITIVE",
    [a(S), a({ ...S, pattern: "^a" })],
    a({ ...S, pattern: "^a" }),
    "version 1: PATTERN_ADDED",
  ],
  ["a pattern changed", "NONE", [a({ ...S, pattern: "^a" })], a({ ...S, pattern: "^b" }), true],
];

export const jsonValueCases = table("JSON", rows);
