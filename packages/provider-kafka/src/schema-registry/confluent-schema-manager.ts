import type { CompatibilityLevel } from "@stream-registry/core";
import {
  isSchemaManagerError,
  SchemaManagerError,
  type ClusterTarget,
  type SchemaContext,
  type SchemaDeleteOptions,
  type SchemaInput,
  type SchemaManager,
  type VersionSelector,
} from "@stream-registry/provider-api";
import {
  compatibilityOf,
  compatibilityResultOf,
  idOf,
  integerOf,
  integersOf,
  registeredSchemaOf,
  stringsOf,
  subjectVersionOf,
} from "./confluent-answers.ts";
import { confluentRequest, segment, type ConfluentCall } from "./confluent-http.ts";
import { SCHEMA_REGISTRY_MAP, schemaRegistryOf } from "./schema-registry-config.ts";

/** A request body's schema, as Confluent takes it: AVRO and no references are left out. */
function bodyOf(input: SchemaInput) {
  return {
    schema: input.schema,
    ...(input.schemaType !== undefined && input.schemaType !== "AVRO" && { schemaType: input.schemaType }),
    ...(input.references !== undefined && input.references.length > 0 && { references: input.references }),
  };
}

const subjectPath = (subject: string) => `/subjects/${segment(subject)}`;
const versionPath = (subject: string, version: VersionSelector) =>
  `${subjectPath(subject)}/versions/${segment(version)}`;

/**
 * The `confluent` SchemaManager (issue 12, Must 1b): the seed's SchemaManager over an external
 * Confluent-compatible schema registry (Confluent, Karapace, Apicurio's ccompat API, Redpanda,
 * another stream registry's /schema-registry), named by the cluster's "schema.registry" config map.
 * It serves only clusters whose config names one; the others use the registry's built-in one.
 *
 * It speaks Confluent's REST protocol over fetch rather than through
 * @kafkajs/confluent-schema-registry: that client (3.9) has no call for deletes, subject lists,
 * global config or verbose checks, and its errors keep neither Confluent's error_code (so 40401,
 * 40402 and 40403 look alike) nor an outage apart from a refusal (a refused connection is a 400).
 */
export function createConfluentSchemaManager(): SchemaManager {
  const call = async <T>(
    context: SchemaContext,
    request: Omit<ConfluentCall, "signal">,
    read: (body: unknown, where: string) => T,
  ): Promise<T> => {
    const settings = schemaRegistryOf(context.cluster.config);
    if (!settings) throw noSchemaRegistry(context.cluster);
    const body = await confluentRequest(settings, { ...request, signal: context.signal });
    return read(body, `${request.method} ${settings.url}${request.path}`);
  };

  const lookup = (subject: string, schema: SchemaInput, context: SchemaContext) =>
    call(context, { method: "POST", path: subjectPath(subject), body: bodyOf(schema) }, (body, where) => {
      const { version, id } = subjectVersionOf(body, where);
      return { subject, version, id };
    });

  const getCompatibility = async (subject: string, context: SchemaContext): Promise<CompatibilityLevel> => {
    const path = `/config/${segment(subject)}?defaultToGlobal=true`;
    try {
      return await call(context, { method: "GET", path }, compatibilityOf);
    } catch (error) {
      // Registries without defaultToGlobal (Karapace, older Confluent) answer 40408: the global level applies.
      if (!isSchemaManagerError(error) || error.reason !== "COMPATIBILITY_NOT_CONFIGURED") throw error;
      return call(context, { method: "GET", path: "/config" }, compatibilityOf);
    }
  };

  return {
    servesCluster: (cluster: ClusterTarget) => schemaRegistryOf(cluster.config) !== undefined,
    async registerSchema(subject, schema, context) {
      const path = `${subjectPath(subject)}/versions`;
      await call(context, { method: "POST", path, body: bodyOf(schema) }, idOf);
      // Confluent answers only the id: the version is the look-up's.
      return lookup(subject, schema, context);
    },
    async isSchemaRegistered(subject, schema, context) {
      try {
        return await lookup(subject, schema, context);
      } catch (error) {
        const absent = ["SUBJECT_NOT_FOUND", "SCHEMA_NOT_FOUND"];
        if (isSchemaManagerError(error) && absent.includes(error.reason ?? "")) return undefined;
        throw error;
      }
    },
    getSchema: (subject, version, context) =>
      call(context, { method: "GET", path: versionPath(subject, version) }, subjectVersionOf),
    getSchemaById: (id, context) =>
      call(context, { method: "GET", path: `/schemas/ids/${segment(id)}` }, (body, where) =>
        registeredSchemaOf(id, body, where),
      ),
    deleteSchema: (subject, version, context, options) =>
      call(
        context,
        { method: "DELETE", path: `${versionPath(subject, version)}${permanentQuery(options)}` },
        integerOf,
      ),
    getSubjects: (context) => call(context, { method: "GET", path: "/subjects" }, stringsOf),
    getSubjectVersions: (subject, context) =>
      call(context, { method: "GET", path: `${subjectPath(subject)}/versions` }, integersOf),
    deleteSubject: (subject, context, options) =>
      call(
        context,
        { method: "DELETE", path: `${subjectPath(subject)}${permanentQuery(options)}` },
        integersOf,
      ),
    async setGlobalCompatibility(level, context) {
      await call(
        context,
        { method: "PUT", path: "/config", body: { compatibility: level } },
        compatibilityOf,
      );
    },
    getGlobalCompatibility: (context) => call(context, { method: "GET", path: "/config" }, compatibilityOf),
    async setCompatibility(subject, level, context) {
      const path = `/config/${segment(subject)}`;
      await call(context, { method: "PUT", path, body: { compatibility: level } }, compatibilityOf);
    },
    getCompatibility,
    checkCompatibility: (subject, version, schema, context) =>
      call(
        context,
        {
          method: "POST",
          path: `/compatibility${versionPath(subject, version)}?verbose=true`,
          body: bodyOf(schema),
        },
        compatibilityResultOf,
      ),
  };
}

/** Confluent's second step of a delete is the same call with `?permanent=true`. */
function permanentQuery(options: SchemaDeleteOptions | undefined): string {
  return options?.permanent ? "?permanent=true" : "";
}

/** A call about a cluster this manager does not serve (the caller should have asked servesCluster). */
function noSchemaRegistry(cluster: ClusterTarget): SchemaManagerError {
  return new SchemaManagerError(
    `cluster ${cluster.namespace}/${cluster.name} names no schema registry (config map "${SCHEMA_REGISTRY_MAP}" with "url")`,
    {
      retriable: false,
      issues: [
        {
          field: [SCHEMA_REGISTRY_MAP, "url"],
          message: "required for the cluster's external schema registry",
        },
      ],
    },
  );
}
