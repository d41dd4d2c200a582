import { quote, textProblem, type SchemaDependency, type SchemaType } from "@stream-registry/core";
import { schemaRefused, type SchemaInput } from "@stream-registry/provider-api";

/** A subject name's most characters: Kafka topic names (249) with "-value" fit. */
export const MAX_SUBJECT_LENGTH = 255;
/** A schema text's most UTF-8 bytes (Confluent Cloud's limit too): parsing stays quick. */
export const MAX_SCHEMA_BYTES = 1024 * 1024;
/** The most references one schema may list, and the deepest a chain of them may go. */
export const MAX_REFERENCES = 1000;
export const MAX_REFERENCE_DEPTH = 32;
/** Versions and ids are Java ints in Confluent's protocol: 1 to 2^31-1. */
export const MAX_VERSION = 2 ** 31 - 1;

/** A schema to register, checked: its type decided (AVRO when left out). */
export interface CheckedInput {
  schema: string;
  schemaType: SchemaType;
  references: SchemaDependency[];
}

/** Throws INVALID_SUBJECT unless `subject` is a name the registry can keep: 1 to 255 characters, none a control character. */
export function checkSubject(subject: string): void {
  const why = subjectProblem(subject);
  if (why)
    throw schemaRefused("INVALID_SUBJECT", `The specified subject ${quote(subject)} is not valid: ${why}`);
}

function subjectProblem(subject: string): string | undefined {
  if (subject.length === 0) return "it is empty";
  const problem = textProblem(subject);
  if (problem) return `it ${problem}`;
  if (Array.from(subject).length > MAX_SUBJECT_LENGTH)
    return `it is longer than ${MAX_SUBJECT_LENGTH} characters`;
  if (/\p{Cc}/u.test(subject)) return "it contains a control character";
  return undefined;
}

/** Whether `value` is a version or id number of the protocol (1 to 2^31-1). */
export function isProtocolInt(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_VERSION;
}

/** Checks a schema as given: its text storable and not too large, its references well named. */
export function checkInput(input: SchemaInput): CheckedInput {
  const problem = textProblem(input.schema);
  if (problem) throw schemaRefused("INVALID_SCHEMA", `Invalid schema: the schema ${problem}`);
  if (input.schema.trim() === "")
    throw schemaRefused("INVALID_SCHEMA", "Invalid schema: the schema is empty");
  const bytes = Buffer.byteLength(input.schema, "utf8");
  if (bytes > MAX_SCHEMA_BYTES) {
    throw schemaRefused(
      "SCHEMA_TOO_LARGE",
      `Schema too large: ${bytes} bytes, more than the ${MAX_SCHEMA_BYTES} a schema may have`,
    );
  }
  const references = input.references ?? [];
  if (references.length > MAX_REFERENCES) {
    throw schemaRefused("INVALID_SCHEMA", `Invalid schema: more than ${MAX_REFERENCES} references`);
  }
  references.forEach((reference, i) => {
    const where = `references[${i}]`;
    const nameProblem = textProblem(reference.name) ?? (reference.name === "" ? "is empty" : undefined);
    if (nameProblem) throw schemaRefused("INVALID_SCHEMA", `Invalid schema: ${where}.name ${nameProblem}`);
    const why = subjectProblem(reference.subject);
    if (why) throw schemaRefused("INVALID_SCHEMA", `Invalid schema: ${where}.subject is not valid: ${why}`);
    if (!isProtocolInt(reference.version)) {
      throw schemaRefused(
        "INVALID_SCHEMA",
        `Invalid schema: ${where}.version must be from 1 to ${MAX_VERSION}`,
      );
    }
  });
  const names = new Set(references.map((r) => r.name));
  if (names.size !== references.length) {
    throw schemaRefused("INVALID_SCHEMA", "Invalid schema: two references have the same name");
  }
  return { schema: input.schema, schemaType: input.schemaType ?? "AVRO", references };
}
