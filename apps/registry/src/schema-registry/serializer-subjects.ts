import {
  CONFLUENT_SUBJECT_NAME_STRATEGY,
  subjectNameStrategyOf,
  topicSubjects,
  type Stream,
} from "@stream-registry/core";
import type { StreamSchemas, StreamSchemaSubject } from "./stream-schemas.ts";

/** Stream.serializerSubjects: what Confluent serializers use for the stream's topic. */
export interface SerializerSubjects {
  topic: string;
  value: StreamSchemaSubject | null;
  key: StreamSchemaSubject | null;
  producersUse: string;
  valueSubjectNameStrategy: string | null;
}

/**
 * Links the subjects a Confluent serializer registers by default (TopicNameStrategy) to the stream
 * whose bindings are its topic, named like the stream (issue 20, item 2): producers that never ran
 * REGISTER ... SCHEMA still show up on their stream. Read from the stream's schema registry.
 */
export async function serializerSubjectsOf(
  schemas: StreamSchemas,
  stream: Stream,
): Promise<SerializerSubjects> {
  const subjects = topicSubjects(stream.name);
  const call = await schemas.callFor(stream);
  const [value, key] = await Promise.all([
    schemas.subjectAt(call, subjects.value, null),
    schemas.subjectAt(call, subjects.key, null),
  ]);
  return {
    topic: stream.name,
    value: value ?? null,
    key: key ?? null,
    producersUse: subjects.value,
    valueSubjectNameStrategy: CONFLUENT_SUBJECT_NAME_STRATEGY[subjectNameStrategyOf(stream.config)],
  };
}
