import type {
  CompatibilityLevel,
  RegisteredSchema,
  SchemaDependency,
  SchemaType,
  SubjectVersion,
} from "@stream-registry/core";
import type { ClusterTarget, OperationContext } from "./operation.ts";

/** Which cluster's schema registry a call is about (its address is in the cluster's config maps). */
export interface SchemaContext extends OperationContext {
  cluster: ClusterTarget;
  /** Who asked, as the registry's change log names them (the built-in registry records it). */
  actor?: string;
}

/**
 * How a delete goes: the seed's SchemaManager deletes softly; `permanent` is Confluent's second
 * step, allowed only for what was soft-deleted first.
 */
export interface SchemaDeleteOptions {
  permanent?: boolean;
}

/** A pointer to one registered schema (the seed's SchemaReference). */
export interface SchemaReference {
  subject: string;
  version: number;
  id: number;
}

/** A schema as a caller gives it: its text, its type (AVRO when left out) and what it references. */
export interface SchemaInput {
  schema: string;
  schemaType?: SchemaType;
  references?: SchemaDependency[];
}

/** A version by its number, or the subject's latest ("latest", or -1 as Confluent also takes). */
export type VersionSelector = number | "latest";

/** Whether a candidate schema may be registered, and if not, why (one message per incompatibility). */
export interface CompatibilityResult {
  compatible: boolean;
  messages: string[];
}

/**
 * The seed's SchemaManager, modelled on Confluent's Schema Registry; asynchronous, and with
 * Confluent's schema types, references and seven compatibility levels. Failures are thrown as
 * SchemaManagerError: a refusal (unknown subject, invalid schema, incompatible...) carries its
 * `reason` and is not retriable; an unreachable registry is retriable.
 */
export interface SchemaManager {
  /**
   * Whether this manager is the schema registry of `cluster` (e.g. the cluster's config names an
   * external registry). Absent means it serves every cluster; where it returns false, the
   * registry uses its built-in schema registry for that cluster.
   */
  servesCluster?(cluster: ClusterTarget): boolean;
  /**
   * Registers a schema under a subject; the same schema under another subject keeps its id, and
   * the same schema again under the same subject is the version it already is.
   */
  registerSchema(subject: string, schema: SchemaInput, context: SchemaContext): Promise<SchemaReference>;
  /** The reference of `schema` under `subject`, or undefined when it is not registered there. */
  isSchemaRegistered(
    subject: string,
    schema: SchemaInput,
    context: SchemaContext,
  ): Promise<SchemaReference | undefined>;
  getSchema(subject: string, version: VersionSelector, context: SchemaContext): Promise<SubjectVersion>;
  getSchemaById(id: number, context: SchemaContext): Promise<RegisteredSchema>;
  /**
   * Soft-deletes one version (its id stays readable); with `permanent`, removes one soft-deleted
   * before (Confluent's two steps). Returns the version deleted.
   */
  deleteSchema(
    subject: string,
    version: VersionSelector,
    context: SchemaContext,
    options?: SchemaDeleteOptions,
  ): Promise<number>;
  getSubjects(context: SchemaContext): Promise<string[]>;
  getSubjectVersions(subject: string, context: SchemaContext): Promise<number[]>;
  /**
   * Soft-deletes a subject and its compatibility level; with `permanent`, removes a subject
   * soft-deleted before, with all its versions. Returns the deleted versions.
   */
  deleteSubject(subject: string, context: SchemaContext, options?: SchemaDeleteOptions): Promise<number[]>;
  setGlobalCompatibility(level: CompatibilityLevel, context: SchemaContext): Promise<void>;
  getGlobalCompatibility(context: SchemaContext): Promise<CompatibilityLevel>;
  setCompatibility(subject: string, level: CompatibilityLevel, context: SchemaContext): Promise<void>;
  /** The level the subject's registrations are checked with: its own, else the global one. */
  getCompatibility(subject: string, context: SchemaContext): Promise<CompatibilityLevel>;
  /** Tests `schema` against one version of the subject (or its latest) under the subject's level. */
  checkCompatibility(
    subject: string,
    version: VersionSelector,
    schema: SchemaInput,
    context: SchemaContext,
  ): Promise<CompatibilityResult>;
}
