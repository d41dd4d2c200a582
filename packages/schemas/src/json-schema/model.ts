/**
 * A JSON Schema read the way Confluent's checker (on the everit library) sees it: each schema is one
 * kind (string, number, object, ...), a schema holding several groups of keywords is an `allOf` of
 * one schema per group, `type: [a, b]` is an `anyOf`, and `$ref`s stay references until compared.
 */
export interface JsonCommon {
  /** The raw schema, for equality of subschemas. */
  readonly raw: unknown;
  readonly id?: string | undefined;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly hasDefault: boolean;
  readonly defaultValue?: unknown;
}

export type JsonNode = JsonCommon & JsonKind;

export type JsonKind =
  | { readonly kind: "empty" }
  | { readonly kind: "false" }
  | { readonly kind: "boolean" }
  | { readonly kind: "null" }
  | { readonly kind: "conditional" }
  | { readonly kind: "ref"; readonly ref: string; target(): JsonNode | undefined }
  | { readonly kind: "not"; readonly schema: JsonNode }
  | { readonly kind: "enum"; readonly values: readonly unknown[] }
  | { readonly kind: "const"; readonly value: unknown }
  | { readonly kind: "combined"; readonly criterion: Criterion; readonly subschemas: readonly JsonNode[] }
  | StringKind
  | NumberKind
  | ObjectKind
  | ArrayKind;

export type Criterion = "allOf" | "anyOf" | "oneOf";

export interface StringKind {
  readonly kind: "string";
  readonly maxLength?: number | undefined;
  readonly minLength?: number | undefined;
  readonly pattern?: string | undefined;
}

export interface NumberKind {
  readonly kind: "number";
  readonly integer: boolean;
  readonly maximum?: number | undefined;
  readonly minimum?: number | undefined;
  readonly exclusiveMaximum?: number | undefined;
  readonly exclusiveMinimum?: number | undefined;
  readonly multipleOf?: number | undefined;
}

/** What goes beyond the listed properties or tuple items: allowed or not (`false`), and with which schema. */
export interface Additional {
  readonly permits: boolean;
  readonly schema: JsonNode | undefined;
}

export interface ObjectKind {
  readonly kind: "object";
  readonly properties: ReadonlyMap<string, JsonNode>;
  readonly required: ReadonlySet<string>;
  /** `additionalProperties` (or `unevaluatedProperties` without it). */
  readonly additional: Additional;
  readonly patternProperties: ReadonlyArray<readonly [string, JsonNode]>;
  readonly propertyDependencies: ReadonlyMap<string, readonly string[]>;
  readonly schemaDependencies: ReadonlyMap<string, JsonNode>;
  readonly maxProperties?: number | undefined;
  readonly minProperties?: number | undefined;
}

export interface ArrayKind {
  readonly kind: "array";
  /** `items: {schema}`: every item. */
  readonly allItems?: JsonNode | undefined;
  /** `items: [...]` or `prefixItems`: a tuple. */
  readonly itemSchemas: readonly JsonNode[];
  /** `additionalItems` (2020-12: `items` after `prefixItems`). */
  readonly additionalItems: Additional;
  readonly unevaluatedItems?: JsonNode | undefined;
  readonly maxItems?: number | undefined;
  readonly minItems?: number | undefined;
  readonly uniqueItems: boolean;
  readonly maxContains?: number | undefined;
  readonly minContains?: number | undefined;
}

export type NodeOf<K extends JsonKind["kind"]> = JsonCommon & Extract<JsonKind, { kind: K }>;
