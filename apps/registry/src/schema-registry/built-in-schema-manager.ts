import { isSchemaManagerError, type SchemaContext, type SchemaManager } from "@stream-registry/provider-api";
import type { SchemaRegistry } from "./schema-registry.ts";

/** Who the change log names when a caller of the SchemaManager names no one. */
const UNNAMED_ACTOR = "registry:schema-manager";

type Context = Partial<Pick<SchemaContext, "actor" | "signal">>;

/**
 * The seed's SchemaManager over the built-in registry: what a cluster whose streams use the
 * registry's own schemas is given. The context's cluster does not matter (one registry serves
 * them all); its actor is recorded in the change log.
 */
export function builtInSchemaManager(registry: SchemaRegistry): SchemaManager {
  const actor = (context: Context) => ({ actor: context.actor ?? UNNAMED_ACTOR });
  const run = <T>(context: Context, fn: () => Promise<T>): Promise<T> => {
    try {
      context.signal?.throwIfAborted();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return fn();
  };
  return {
    registerSchema: (subject, schema, context) =>
      run(context, () => registry.registrations.register(subject, schema, actor(context))),
    isSchemaRegistered: (subject, schema, context) =>
      run(context, async () => {
        try {
          const { version, id } = await registry.registrations.lookup(subject, schema);
          return { subject, version, id };
        } catch (error) {
          const absent = ["SUBJECT_NOT_FOUND", "SCHEMA_NOT_FOUND"] as const;
          if (isSchemaManagerError(error) && absent.some((reason) => reason === error.reason))
            return undefined;
          throw error;
        }
      }),
    getSchema: (subject, version, context) => run(context, () => registry.reads.version(subject, version)),
    getSchemaById: (id, context) => run(context, () => registry.reads.schema(id)),
    deleteSchema: (subject, version, context, options) =>
      run(context, () => registry.deletes.deleteVersion(subject, version, { ...options, ...actor(context) })),
    getSubjects: (context) => run(context, () => registry.reads.subjects()),
    getSubjectVersions: (subject, context) => run(context, () => registry.reads.versions(subject)),
    deleteSubject: (subject, context, options) =>
      run(context, () => registry.deletes.deleteSubject(subject, { ...options, ...actor(context) })),
    setGlobalCompatibility: (level, context) =>
      run(context, async () => {
        await registry.settings.set("compatibility", undefined, level, actor(context));
      }),
    getGlobalCompatibility: (context) =>
      run(context, () => registry.settings.get("compatibility", undefined)),
    setCompatibility: (subject, level, context) =>
      run(context, async () => {
        await registry.settings.set("compatibility", subject, level, actor(context));
      }),
    getCompatibility: (subject, context) =>
      run(context, () => registry.settings.get("compatibility", subject, true)),
    checkCompatibility: (subject, version, schema, context) =>
      run(context, () => registry.registrations.test(subject, version, schema)),
  };
}
