import { subjectNameStrategyOf, type Stream } from "@stream-registry/core";
import { serializerSubjectsOf } from "../../schema-registry/serializer-subjects.ts";
import type { StreamSchemaSubject } from "../../schema-registry/stream-schemas.ts";
import type { GraphQLContext } from "../context.ts";
import type { MutationResolvers, QueryResolvers, StreamResolvers } from "../../generated/resolvers-types.ts";
import { accessOf, callerIn } from "../authorize.ts";
import { payload } from "../payload.ts";
import { routed } from "../routed.ts";

/** Schema look-ups by subject, id and level (issue 12, Must 5); routed like `stream(name, namespace)`. */
export const schemaQueries: Pick<
  QueryResolvers,
  "schemaVersion" | "schemaById" | "schemaCompatibility" | "checkSchemaCompatibility"
> = {
  schemaVersion: routed(async (_, { subject, version, stream }, context) =>
    context.services.schemaSubjects.version({ subject, stream }, version, await accessOf(context)),
  ),
  schemaById: routed(async (_, { id, stream }, context) =>
    context.services.schemaSubjects.byId(id, stream, await accessOf(context)),
  ),
  schemaCompatibility: routed(async (_, { subject, stream }, context) =>
    context.services.schemaSubjects.compatibility({ subject, stream }, await accessOf(context)),
  ),
  checkSchemaCompatibility: routed(async (_, args, context) =>
    context.services.schemaSubjects.check(args, await accessOf(context)),
  ),
};

/** REGISTER KEY / TYPE SCHEMA, deletes and levels; routed like createStream. */
export const schemaMutations: Pick<
  MutationResolvers,
  | "registerKeySchema"
  | "registerTypeSchema"
  | "deleteSchemaVersion"
  | "deleteSchemaSubject"
  | "setSchemaCompatibility"
> = {
  registerKeySchema: routed((_, { input }, context) =>
    payload(async () => ({
      schema: await context.services.streamSchemas.register(input, await callerIn(context)),
    })),
  ),
  registerTypeSchema: routed((_, { input }, context) =>
    payload(async () => ({
      schema: await context.services.streamSchemas.register(input, await callerIn(context)),
    })),
  ),
  deleteSchemaVersion: routed((_, { input }, context) =>
    payload(async () => context.services.schemaSubjects.deleteVersion(input, await callerIn(context))),
  ),
  deleteSchemaSubject: routed((_, { input }, context) =>
    payload(async () => context.services.schemaSubjects.deleteSubject(input, await callerIn(context))),
  ),
  setSchemaCompatibility: routed((_, { input }, context) =>
    payload(async () =>
      context.services.schemaSubjects.setCompatibility(input, input.level, await callerIn(context)),
    ),
  ),
};

/** A stream's subjects, read once per request for both its fields (kept by the request's loaders). */
const read = new WeakMap<object, Map<string, Promise<StreamSchemaSubject[]>>>();

function subjectsOf(stream: Stream, context: GraphQLContext): Promise<StreamSchemaSubject[]> {
  let streams = read.get(context.loaders);
  if (!streams) read.set(context.loaders, (streams = new Map()));
  let subjects = streams.get(stream.id);
  if (!subjects) streams.set(stream.id, (subjects = context.services.streamSchemas.subjectsOf(stream)));
  return subjects;
}

type StreamSchemaFields = Pick<
  StreamResolvers,
  "subjectNameStrategy" | "keySchema" | "typeSchemas" | "serializerSubjects"
>;

/** A stream's schemas, from the schema registry its schemas go to. */
export const streamSchemaFields: StreamSchemaFields = {
  subjectNameStrategy: (stream) => subjectNameStrategyOf(stream.config),
  keySchema: async (stream, _, context) =>
    (await subjectsOf(stream, context)).find((s) => s.typeName === null) ?? null,
  typeSchemas: async (stream, _, context) =>
    (await subjectsOf(stream, context)).filter((s) => s.typeName !== null),
  serializerSubjects: (stream, _, context) => serializerSubjectsOf(context.services.streamSchemas, stream),
};
