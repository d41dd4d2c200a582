import { userError, ErrorCode, type UserError } from "./errors.ts";
import type { ConfigMaps } from "./config-maps.ts";

/**
 * How a stream's schemas are named as subjects (issue 12, Must 4), as Confluent's serializers name
 * them: TYPE_NAME is the seed's (`<stream>-<TypeName>`, one subject per type, the default);
 * TOPIC_NAME Confluent's default (`<stream>-value`: one type only); RECORD_NAME the record's full
 * name (shared by every stream that carries the record); TOPIC_RECORD_NAME `<stream>-<full name>`.
 * The key schema is `<stream>-key` under every strategy but RECORD_NAME, where it is the key
 * schema's full name when it has one.
 */
export const SUBJECT_NAME_STRATEGIES = [
  "TYPE_NAME",
  "TOPIC_NAME",
  "RECORD_NAME",
  "TOPIC_RECORD_NAME",
] as const;
export type SubjectNameStrategy = (typeof SUBJECT_NAME_STRATEGIES)[number];
export const DEFAULT_SUBJECT_NAME_STRATEGY: SubjectNameStrategy = "TYPE_NAME";

/** Where a stream names its strategy: `config: { "schemas": { "subject.name.strategy": "TOPIC_NAME" } }`. */
export const SCHEMAS_CONFIG_MAP = "schemas";
export const SUBJECT_NAME_STRATEGY_KEY = "subject.name.strategy";

export function isSubjectNameStrategy(value: unknown): value is SubjectNameStrategy {
  return (SUBJECT_NAME_STRATEGIES as readonly unknown[]).includes(value);
}

/** The strategy a stream's config maps name, or the default. Call on maps checkSubjectNameStrategy accepted. */
export function subjectNameStrategyOf(config: ConfigMaps): SubjectNameStrategy {
  const value = config[SCHEMAS_CONFIG_MAP]?.[SUBJECT_NAME_STRATEGY_KEY];
  return isSubjectNameStrategy(value) ? value : DEFAULT_SUBJECT_NAME_STRATEGY;
}

/** The stream's "schemas" map, when given, holds a known strategy and nothing else. */
export function checkSubjectNameStrategy(config: ConfigMaps, field: string[]): UserError[] {
  const map = config[SCHEMAS_CONFIG_MAP];
  if (map === undefined) return [];
  const errors: UserError[] = [];
  for (const [key, value] of Object.entries(map)) {
    const at = [...field, SCHEMAS_CONFIG_MAP, key];
    if (key !== SUBJECT_NAME_STRATEGY_KEY) {
      errors.push(
        userError(
          ErrorCode.INVALID_INPUT,
          at,
          `unknown key; the "schemas" map takes only "${SUBJECT_NAME_STRATEGY_KEY}"`,
        ),
      );
    } else if (!isSubjectNameStrategy(value)) {
      errors.push(
        userError(
          ErrorCode.INVALID_INPUT,
          at,
          `unknown subject name strategy ${JSON.stringify(value)}; one of ${SUBJECT_NAME_STRATEGIES.join(", ")}`,
        ),
      );
    }
  }
  return errors;
}

/** What a subject is asked for: the stream's key schema, or one of its type schemas. */
export type SchemaRole = { role: "key" } | { role: "type"; typeName: string };

/**
 * The subject a stream's key or type schema is registered under. `recordName` is the schema's
 * full name (ParsedSchema.recordName); a strategy that needs it and has none is an error (thrown
 * by the caller: undefined here).
 */
export function subjectName(
  stream: string,
  strategy: SubjectNameStrategy,
  schema: SchemaRole,
  recordName: string | undefined,
): string | undefined {
  if (schema.role === "key") {
    if (strategy === "RECORD_NAME") return recordName ?? `${stream}-key`;
    return `${stream}-key`;
  }
  switch (strategy) {
    case "TYPE_NAME":
      return `${stream}-${schema.typeName}`;
    case "TOPIC_NAME":
      return `${stream}-value`;
    case "RECORD_NAME":
      return recordName;
    case "TOPIC_RECORD_NAME":
      return recordName === undefined ? undefined : `${stream}-${recordName}`;
  }
}

/** Whether a strategy names a type's subject from the schema's record (so the schema must have one). */
export function needsRecordName(strategy: SubjectNameStrategy, schema: SchemaRole): boolean {
  return schema.role === "type" && (strategy === "RECORD_NAME" || strategy === "TOPIC_RECORD_NAME");
}

/**
 * The class a Confluent serializer's `value.subject.name.strategy` names to use the subjects
 * `strategy` names; none names TYPE_NAME's `<stream>-<TypeName>`.
 */
export const CONFLUENT_SUBJECT_NAME_STRATEGY: Readonly<Record<SubjectNameStrategy, string | null>> = {
  TYPE_NAME: null,
  TOPIC_NAME: "io.confluent.kafka.serializers.subject.TopicNameStrategy",
  RECORD_NAME: "io.confluent.kafka.serializers.subject.RecordNameStrategy",
  TOPIC_RECORD_NAME: "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy",
};

/** The subjects Confluent serializers use for `topic` by default (TopicNameStrategy). */
export function topicSubjects(topic: string): { value: string; key: string } {
  return { value: `${topic}-value`, key: `${topic}-key` };
}
