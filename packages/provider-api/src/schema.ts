import type { ClusterTarget, OperationContext } from "./infrastructure.ts";

/** Which cluster's schema registry a call is about (its address is in the cluster's config maps). */
export interface SchemaContext extends OperationContext {
  cluster: ClusterTarget;
}

/** A pointer to one registered schema (the seed's SchemaReference). */
export interface SchemaReference {
  subject: string;
  version: number;
  id: number;
}

export type CompatibilityLevel = "BACKWARD_TRANSITIVE" | "FORWARD_TRANSITIVE" | "FULL_TRANSITIVE";

/**
 * The seed's SchemaManager, modelled on Confluent's Schema Registry. Failures are thrown as
 * SchemaManagerError (an incompatible schema is not retriable).
 */
export interface SchemaManager {
  /** Registers a schema under a subject; the same schema under another subject keeps its id. */
  registerSchema(subject: string, schema: string, context: SchemaContext): Promise<SchemaReference>;
  /** The reference of `schema` under `subject`, or undefined when it is not registered there. */
  isSchemaRegistered(
    subject: string,
    schema: string,
    context: SchemaContext,
  ): Promise<SchemaReference | undefined>;
  getSchema(subject: string, version: number, context: SchemaContext): Promise<string>;
  getSchemaById(id: number, context: SchemaContext): Promise<string>;
  deleteSchema(subject: string, version: number, context: SchemaContext): Promise<void>;
  getSubjects(context: SchemaContext): Promise<string[]>;
  getSubjectVersions(subject: string, context: SchemaContext): Promise<number[]>;
  /** Deletes a subject and its compatibility level; returns the deleted versions. */
  deleteSubject(subject: string, context: SchemaContext): Promise<number[]>;
  setGlobalCompatibility(level: CompatibilityLevel, context: SchemaContext): Promise<void>;
  getGlobalCompatibility(context: SchemaContext): Promise<CompatibilityLevel>;
  setCompatibility(subject: string, level: CompatibilityLevel, context: SchemaContext): Promise<void>;
  getCompatibility(subject: string, context: SchemaContext): Promise<CompatibilityLevel>;
  checkCompatibility(
    subject: string,
    version: number,
    schema: string,
    context: SchemaContext,
  ): Promise<boolean>;
}
