import { readFileSync } from "node:fs";
import {
  buildASTSchema,
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  type GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";
import { INDEXED_TYPES, UNINDEXED_FIELDS } from "@stream-registry/federation";

/** schema.graphql at the repository root, as the registry serves it (types only, no resolvers). */
export function registrySchema(): GraphQLSchema {
  const sdl = readFileSync(new URL("../../../../schema.graphql", import.meta.url), "utf8");
  return buildASTSchema(parse(sdl), { assumeValidSDL: true });
}

/** The object types the discovery index answers (a row of its own each): Stream, Cluster, Binding. */
export function indexedTypes(schema: GraphQLSchema): GraphQLObjectType[] {
  return Object.values(INDEXED_TYPES).map((name) => {
    const type = schema.getType(name);
    if (!isObjectType(type)) throw new Error(`${name} is not an object type of the schema`);
    return type;
  });
}

/**
 * Fields not compared between the index and the live fan-out: they change with no change of their
 * entity (no change-log entry, so no new document in the index): a cluster's health is probed
 * every interval, a binding's observation is written by each resync.
 */
const NOT_COMPARED: Readonly<Record<string, readonly string[]>> = {
  Cluster: ["health"],
  Binding: ["observed"],
};

/** The lists a discovery query asks the index or the live fan-out for (`consistency`), by name. */
export function discoveryLists(schema: GraphQLSchema): { name: string; node: GraphQLObjectType }[] {
  const query = schema.getQueryType()!;
  return Object.values(query.getFields())
    .filter((field) => field.args.some((arg) => arg.name === "consistency"))
    .map((field) => {
      const connection = getNamedType(field.type) as GraphQLObjectType;
      return {
        name: field.name,
        node: getNamedType(connection.getFields().nodes!.type) as GraphQLObjectType,
      };
    });
}

/**
 * Every field of `type` the index answers, nested objects in full, derived from the schema so that
 * a field added to the API is compared with it: but NOT_COMPARED and UNINDEXED_FIELDS (answered by
 * their owner whatever the consistency), and fields whose arguments are required. An entity
 * already on the path is selected by its key fields.
 */
export function comparedSelection(type: GraphQLObjectType, path: readonly string[] = [type.name]): string {
  const fields = Object.values(type.getFields()).flatMap((field) => {
    const skipped = [...(UNINDEXED_FIELDS[type.name] ?? []), ...(NOT_COMPARED[type.name] ?? [])];
    if (skipped.includes(field.name)) return [];
    if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) return [];
    const named = getNamedType(field.type);
    if (isLeafType(named)) return [field.name];
    if (!isObjectType(named)) return [];
    if (!path.includes(named.name))
      return [`${field.name} ${comparedSelection(named, [...path, named.name])}`];
    const key = keyFields(named);
    return key ? [`${field.name} { ${key} }`] : [];
  });
  return `{ ${fields.join(" ")} }`;
}

/** The fields of an entity's `@key`; undefined for a type that is not an entity. */
function keyFields(type: GraphQLObjectType): string | undefined {
  const key = type.astNode?.directives?.find((directive) => directive.name.value === "key");
  const fields = key?.arguments?.find((argument) => argument.name.value === "fields")?.value;
  return fields?.kind === Kind.STRING ? fields.value : undefined;
}
