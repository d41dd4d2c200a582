import {
  isCompatibilityLevel,
  isSchemaType,
  type CompatibilityLevel,
  type RegisteredSchema,
  type SchemaDependency,
  type SubjectVersion,
} from "@stream-registry/core";
import type { CompatibilityResult } from "@stream-registry/provider-api";
import { unexpectedAnswer } from "./confluent-errors.ts";

/** Readers of Confluent's answers into provider-api's types; an answer of another shape is refused. */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null;
const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);

export function integerOf(body: unknown, where: string): number {
  if (isInteger(body)) return body;
  throw unexpectedAnswer(where, body);
}

export function integersOf(body: unknown, where: string): number[] {
  if (Array.isArray(body) && body.every(isInteger)) return body;
  throw unexpectedAnswer(where, body);
}

export function stringsOf(body: unknown, where: string): string[] {
  if (Array.isArray(body) && body.every((item) => typeof item === "string")) return body as string[];
  throw unexpectedAnswer(where, body);
}

/** `{id}` of a registration. */
export function idOf(body: unknown, where: string): number {
  if (isObject(body) && isInteger(body.id)) return body.id;
  throw unexpectedAnswer(where, body);
}

function referencesOf(value: unknown, where: string): SchemaDependency[] {
  if (value === undefined || value === null) return [];
  const valid = (item: unknown): item is SchemaDependency =>
    isObject(item) &&
    typeof item.name === "string" &&
    typeof item.subject === "string" &&
    isInteger(item.version);
  if (Array.isArray(value) && value.every(valid)) {
    return value.map(({ name, subject, version }) => ({ name, subject, version }));
  }
  throw unexpectedAnswer(where, value);
}

/** `GET /schemas/ids/{id}`: `{schema, schemaType?, references?}` (AVRO when the type is left out). */
export function registeredSchemaOf(id: number, body: unknown, where: string): RegisteredSchema {
  if (!isObject(body) || typeof body.schema !== "string") throw unexpectedAnswer(where, body);
  const schemaType = body.schemaType ?? "AVRO";
  if (!isSchemaType(schemaType)) throw unexpectedAnswer(where, body);
  return { id, schemaType, schema: body.schema, references: referencesOf(body.references, where) };
}

/** A version: `{subject, version, id, schema, schemaType?, references?}`. */
export function subjectVersionOf(body: unknown, where: string): SubjectVersion {
  if (
    !isObject(body) ||
    typeof body.subject !== "string" ||
    !isInteger(body.version) ||
    !isInteger(body.id)
  ) {
    throw unexpectedAnswer(where, body);
  }
  return {
    ...registeredSchemaOf(body.id, body, where),
    subject: body.subject,
    version: body.version,
    deleted: false,
  };
}

/** `{compatibilityLevel}` of GET /config (`{compatibility}` of PUT, as some registries answer GET too). */
export function compatibilityOf(body: unknown, where: string): CompatibilityLevel {
  const level = isObject(body) ? (body.compatibilityLevel ?? body.compatibility) : undefined;
  if (isCompatibilityLevel(level)) return level;
  throw unexpectedAnswer(where, body);
}

/** `{is_compatible, messages?}` of a compatibility check with verbose=true. */
export function compatibilityResultOf(body: unknown, where: string): CompatibilityResult {
  if (!isObject(body) || typeof body.is_compatible !== "boolean") throw unexpectedAnswer(where, body);
  const messages = Array.isArray(body.messages) ? body.messages.map(String) : [];
  return { compatible: body.is_compatible, messages };
}
