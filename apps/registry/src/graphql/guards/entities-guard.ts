import { isUnionType, Kind, type GraphQLNamedType, type GraphQLSchema } from "graphql";
import { ErrorCode, RegistryError } from "@stream-registry/core";

/**
 * Checks `_entities` representations before @apollo/subgraph resolves them: each must be an object
 * whose `__typename` is one of this subgraph's entities, with every key field a string. Without
 * this, an unknown type or a missing key became an internal error.
 */
export function guardEntities(schema: GraphQLSchema): GraphQLSchema {
  const field = schema.getQueryType()?.getFields()._entities;
  const union = schema.getType("_Entity");
  if (!field?.resolve || !isUnionType(union)) return schema;
  const keys = new Map(union.getTypes().map((type) => [type.name, keyFields(type)]));
  const resolve = field.resolve;
  field.resolve = (source, args: { representations: unknown[] }, context, info) => {
    args.representations.forEach((representation, index) => checkRepresentation(representation, index, keys));
    return resolve(source, args, context, info);
  };
  return schema;
}

function checkRepresentation(value: unknown, index: number, keys: Map<string, string[]>): void {
  const at = ["representations", String(index)];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RegistryError(
      ErrorCode.INVALID_INPUT,
      `representation ${index} must be an object, got ${describeValue(value)}`,
      at,
    );
  }
  const { __typename: typename } = value as Record<string, unknown>;
  const fields = typeof typename === "string" ? keys.get(typename) : undefined;
  if (!fields) {
    throw new RegistryError(
      ErrorCode.INVALID_INPUT,
      `representation ${index} has __typename ${JSON.stringify(typename)}; the entities of this registry are ${[...keys.keys()].join(", ")}`,
      [...at, "__typename"],
    );
  }
  for (const name of fields) {
    const key = (value as Record<string, unknown>)[name];
    if (typeof key !== "string") {
      throw new RegistryError(
        ErrorCode.INVALID_INPUT,
        `representation ${index} (${typename}) needs key field "${name}" as a string, got ${describeValue(key)}`,
        [...at, name],
      );
    }
  }
}

function describeValue(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** The fields of a type's @key directives (this schema's keys are flat lists of scalar fields). */
function keyFields(type: GraphQLNamedType): string[] {
  return (type.astNode?.directives ?? [])
    .filter((directive) => directive.name.value === "key")
    .flatMap((directive) => directive.arguments ?? [])
    .flatMap((arg) => (arg.value.kind === Kind.STRING ? arg.value.value.split(/\s+/).filter(Boolean) : []));
}
