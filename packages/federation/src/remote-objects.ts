import {
  defaultFieldResolver,
  getNamedType,
  isLeafType,
  isObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from "graphql";

/** Marks an object that another registry resolved: its fields are its answer, by response key. */
const REMOTE = Symbol("stream-registry.remote");

interface RemoteObject {
  [REMOTE]: Record<string, unknown>;
}

function isRemote(value: unknown): value is RemoteObject {
  return typeof value === "object" && value !== null && REMOTE in value;
}

/**
 * Another registry's answer for a field of type `type`, made resolvable here: objects become
 * remote objects whose fields resolve to what that registry answered (passThroughRemote); leaves
 * (scalars, enums) and nulls stay as they are.
 */
export function remoteValue(value: unknown, type: GraphQLOutputType): unknown {
  if (value === null || value === undefined || isLeafType(getNamedType(type))) return value;
  if (Array.isArray(value)) return value.map((item) => remoteValue(item, type));
  const answer = value as Record<string, unknown>;
  // A member of a union (an `_entities` answer) is told apart by its __typename, read by graphql.
  const typename = typeof answer.__typename === "string" ? { __typename: answer.__typename } : {};
  return { [REMOTE]: answer, ...typename } satisfies RemoteObject;
}

/**
 * Makes every field of every object type (root types aside) resolve a remote object from the
 * other registry's answer, and anything else as before: one schema serves its own rows and what
 * its children answered, the client's selection applied by the child.
 */
export function passThroughRemote(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || roots.has(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const own = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info: GraphQLResolveInfo) =>
        isRemote(source)
          ? remoteValue(source[REMOTE][info.path.key], info.returnType)
          : own(source, args, context, info);
    }
  }
  return schema;
}
