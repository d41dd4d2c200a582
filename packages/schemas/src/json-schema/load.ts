import { isPlainObject } from "../stable-json.ts";
import type {
  ArrayKind,
  Criterion,
  JsonCommon,
  JsonKind,
  JsonNode,
  NumberKind,
  ObjectKind,
} from "./model.ts";
import type { JsonParsed } from "./parse.ts";
import { RefResolver, type Located } from "./refs.ts";

type Raw = Record<string, unknown>;

const OBJECT_KEYWORDS = [
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "dependencies",
  "dependentRequired",
  "dependentSchemas",
  "minProperties",
  "maxProperties",
  "unevaluatedProperties",
];
const ARRAY_KEYWORDS = ["items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems"];
const STRING_KEYWORDS = ["minLength", "maxLength", "pattern"];
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const CRITERIA: readonly Criterion[] = ["allOf", "anyOf", "oneOf"];

/** Reads a parsed JSON Schema into the model the checker compares; one node per raw schema object. */
export function loadJsonSchema(parsed: JsonParsed): JsonNode {
  return new Loader(new RefResolver(parsed.root, parsed.references), parsed.draft === "2020-12").load({
    document: parsed.root,
    schema: parsed.root.schema,
  });
}

class Loader {
  private readonly nodes = new WeakMap<object, JsonNode>();

  constructor(
    private readonly refs: RefResolver,
    private readonly prefixItemsDraft: boolean,
  ) {}

  load(at: Located): JsonNode {
    const schema = at.schema;
    if (schema === false) return { raw: false, hasDefault: false, kind: "false" };
    if (!isPlainObject(schema)) return { raw: schema, hasDefault: false, kind: "empty" };
    const known = this.nodes.get(schema);
    if (known) return known;
    // Registered before its parts are read, so that a cycle through $ref finds it.
    const node = { ...common(schema) } as JsonNode;
    this.nodes.set(schema, node);
    const kinds = this.kinds(schema, at);
    const kind: JsonKind =
      kinds.length === 0
        ? { kind: "empty" }
        : kinds.length === 1
          ? kinds[0]!
          : { kind: "combined", criterion: "allOf", subschemas: kinds.map((k, i) => part(schema, k, i)) };
    Object.assign(node, kind);
    return node;
  }

  private child(at: Located, schema: unknown): JsonNode {
    return this.load({ document: at.document, schema });
  }

  /** One kind per group of keywords the schema holds (everit's extractors). */
  private kinds(schema: Raw, at: Located): JsonKind[] {
    const kinds: JsonKind[] = [];
    const ref = schema["$ref"];
    if (typeof ref === "string") kinds.push(this.reference(ref, at));
    if (Array.isArray(schema["enum"])) kinds.push({ kind: "enum", values: schema["enum"] });
    if ("const" in schema) kinds.push({ kind: "const", value: schema["const"] });
    for (const criterion of CRITERIA) {
      const subschemas = schema[criterion];
      if (Array.isArray(subschemas)) {
        kinds.push({ kind: "combined", criterion, subschemas: subschemas.map((sub) => this.child(at, sub)) });
      }
    }
    if ("not" in schema) kinds.push({ kind: "not", schema: this.child(at, schema["not"]) });
    if ("if" in schema) kinds.push({ kind: "conditional" });
    kinds.push(...this.typed(schema, at));
    return kinds;
  }

  private reference(ref: string, at: Located): JsonKind {
    let resolved: JsonNode | null | undefined = null;
    return {
      kind: "ref",
      ref,
      target: () => {
        if (resolved === null) {
          const target = this.refs.resolve(ref, at.document);
          resolved = target ? this.load(target) : undefined;
        }
        return resolved;
      },
    };
  }

  private typed(schema: Raw, at: Located): JsonKind[] {
    const type = schema["type"];
    const types = typeof type === "string" ? [type] : Array.isArray(type) ? type.map(String) : undefined;
    if (types && types.length > 1) {
      const subschemas = types.map((t) => part(schema, this.ofType(t, schema, at), t));
      return [{ kind: "combined", criterion: "anyOf", subschemas }];
    }
    if (types && types.length === 1) return [this.ofType(types[0]!, schema, at)];
    const inferred: JsonKind[] = [];
    if (OBJECT_KEYWORDS.some((key) => key in schema)) inferred.push(this.object(schema, at));
    if (ARRAY_KEYWORDS.some((key) => key in schema)) inferred.push(this.array(schema, at));
    if (STRING_KEYWORDS.some((key) => key in schema)) inferred.push(stringKind(schema));
    if (NUMBER_KEYWORDS.some((key) => key in schema)) inferred.push(numberKind(schema, false));
    return inferred;
  }

  private ofType(type: string, schema: Raw, at: Located): JsonKind {
    switch (type) {
      case "object":
        return this.object(schema, at);
      case "array":
        return this.array(schema, at);
      case "string":
        return stringKind(schema);
      case "integer":
        return numberKind(schema, true);
      case "number":
        return numberKind(schema, false);
      case "boolean":
        return { kind: "boolean" };
      case "null":
        return { kind: "null" };
      default:
        return { kind: "empty" };
    }
  }

  private object(schema: Raw, at: Located): ObjectKind {
    const additional = schema["additionalProperties"] ?? schema["unevaluatedProperties"];
    const propertyDependencies = new Map<string, readonly string[]>();
    const schemaDependencies = new Map<string, JsonNode>();
    for (const source of [schema["dependencies"], schema["dependentRequired"], schema["dependentSchemas"]]) {
      for (const [key, value] of Object.entries(isPlainObject(source) ? source : {})) {
        if (Array.isArray(value)) propertyDependencies.set(key, value.map(String));
        else schemaDependencies.set(key, this.child(at, value));
      }
    }
    return {
      kind: "object",
      properties: new Map(entries(schema["properties"]).map(([key, sub]) => [key, this.child(at, sub)])),
      required: new Set(Array.isArray(schema["required"]) ? schema["required"].map(String) : []),
      additional: {
        permits: additional !== false,
        schema: isPlainObject(additional) ? this.child(at, additional) : undefined,
      },
      patternProperties: entries(schema["patternProperties"]).map(([key, sub]) => [key, this.child(at, sub)]),
      propertyDependencies,
      schemaDependencies,
      maxProperties: numberOrUndefined(schema["maxProperties"]),
      minProperties: numberOrUndefined(schema["minProperties"]),
    };
  }

  private array(schema: Raw, at: Located): ArrayKind {
    const items = schema["items"];
    const prefix = schema["prefixItems"];
    // 2020-12: `prefixItems` is the tuple and `items` what follows it (formerly additionalItems).
    const tuple = Array.isArray(prefix) ? prefix : Array.isArray(items) ? items : undefined;
    const rest = Array.isArray(prefix) && this.prefixItemsDraft ? items : schema["additionalItems"];
    const allItems = tuple === undefined && items !== undefined ? this.child(at, items) : undefined;
    const unevaluated = schema["unevaluatedItems"];
    return {
      kind: "array",
      allItems,
      itemSchemas: (tuple ?? []).map((sub) => this.child(at, sub)),
      additionalItems: {
        permits: rest !== false,
        schema: isPlainObject(rest) ? this.child(at, rest) : undefined,
      },
      unevaluatedItems: unevaluated === undefined ? undefined : this.child(at, unevaluated),
      maxItems: numberOrUndefined(schema["maxItems"]),
      minItems: numberOrUndefined(schema["minItems"]),
      uniqueItems: schema["uniqueItems"] === true,
      maxContains: numberOrUndefined(schema["maxContains"]),
      minContains: numberOrUndefined(schema["minContains"]),
    };
  }
}

function common(schema: Raw): JsonCommon {
  const id = schema["$id"] ?? schema["id"];
  return {
    raw: schema,
    id: typeof id === "string" ? id : undefined,
    title: typeof schema["title"] === "string" ? schema["title"] : undefined,
    description: typeof schema["description"] === "string" ? schema["description"] : undefined,
    hasDefault: "default" in schema,
    defaultValue: schema["default"],
  };
}

/** One of the schemas a schema with several keyword groups (or types) stands for. */
function part(schema: Raw, kind: JsonKind, which: string | number): JsonNode {
  return { ...common(schema), raw: { part: which, of: schema }, ...kind };
}

function stringKind(schema: Raw): JsonKind {
  return {
    kind: "string",
    maxLength: numberOrUndefined(schema["maxLength"]),
    minLength: numberOrUndefined(schema["minLength"]),
    pattern: typeof schema["pattern"] === "string" ? schema["pattern"] : undefined,
  };
}

/** Draft-04's boolean exclusiveMaximum/exclusiveMinimum make maximum/minimum exclusive limits. */
function numberKind(schema: Raw, integer: boolean): NumberKind {
  const maximum = numberOrUndefined(schema["maximum"]);
  const minimum = numberOrUndefined(schema["minimum"]);
  const exclusiveMax = schema["exclusiveMaximum"];
  const exclusiveMin = schema["exclusiveMinimum"];
  return {
    kind: "number",
    integer,
    maximum: exclusiveMax === true ? undefined : maximum,
    minimum: exclusiveMin === true ? undefined : minimum,
    exclusiveMaximum: exclusiveMax === true ? maximum : numberOrUndefined(exclusiveMax),
    exclusiveMinimum: exclusiveMin === true ? minimum : numberOrUndefined(exclusiveMin),
    multipleOf: numberOrUndefined(schema["multipleOf"]),
  };
}

function entries(value: unknown): Array<[string, unknown]> {
  return isPlainObject(value) ? Object.entries(value) : [];
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}
