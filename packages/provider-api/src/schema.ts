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
  registerSchema(subject: string, schema: string): Promise<SchemaReference>;
  /** The reference of `schema` under `subject`, or undefined when it is not registered there. */
  isSchemaRegistered(subject: string, schema: string): Promise<SchemaReference | undefined>;
  getSchema(subject: string, version: number): Promise<string>;
  getSchemaById(id: number): Promise<string>;
  deleteSchema(subject: string, version: number): Promise<void>;
  getSubjects(): Promise<string[]>;
  getSubjectVersions(subject: string): Promise<number[]>;
  /** Deletes a subject and its compatibility level; returns the deleted versions. */
  deleteSubject(subject: string): Promise<number[]>;
  setGlobalCompatibility(level: CompatibilityLevel): Promise<void>;
  getGlobalCompatibility(): Promise<CompatibilityLevel>;
  setCompatibility(subject: string, level: CompatibilityLevel): Promise<void>;
  getCompatibility(subject: string): Promise<CompatibilityLevel>;
  checkCompatibility(subject: string, version: number, schema: string): Promise<boolean>;
}
