import { quote } from "@stream-registry/core";
import { schemaRefused, type SchemaManagerError, type VersionSelector } from "@stream-registry/provider-api";

/**
 * The built-in registry's refusals, worded as Confluent's (clients and people searching for a
 * message find the same words); each carries its reason, which the APIs map to their codes.
 */
export const refuse = {
  subjectNotFound: (subject: string) =>
    schemaRefused("SUBJECT_NOT_FOUND", `Subject ${quote(subject)} not found.`),
  versionNotFound: (subject: string, version: VersionSelector) =>
    schemaRefused("VERSION_NOT_FOUND", `Version ${version} not found for subject ${quote(subject)}.`),
  schemaNotFound: (what = "Schema not found") => schemaRefused("SCHEMA_NOT_FOUND", what),
  subjectSoftDeleted: (subject: string) =>
    schemaRefused(
      "SUBJECT_SOFT_DELETED",
      `Subject ${quote(subject)} was soft deleted. Set permanent=true to delete permanently`,
    ),
  subjectNotSoftDeleted: (subject: string) =>
    schemaRefused(
      "SUBJECT_NOT_SOFT_DELETED",
      `Subject ${quote(subject)} was not deleted first before being permanently deleted`,
    ),
  versionSoftDeleted: (subject: string, version: number) =>
    schemaRefused(
      "VERSION_SOFT_DELETED",
      `Subject ${quote(subject)} Version ${version} was soft deleted. Set permanent=true to delete permanently`,
    ),
  versionNotSoftDeleted: (subject: string, version: number) =>
    schemaRefused(
      "VERSION_NOT_SOFT_DELETED",
      `Subject ${quote(subject)} Version ${version} was not deleted first before being permanently deleted`,
    ),
  compatibilityNotConfigured: (subject: string) =>
    schemaRefused(
      "COMPATIBILITY_NOT_CONFIGURED",
      `Subject ${quote(subject)} does not have subject-level compatibility configured`,
    ),
  modeNotConfigured: (subject: string) =>
    schemaRefused(
      "MODE_NOT_CONFIGURED",
      `Subject ${quote(subject)} does not have subject-level mode configured`,
    ),
  referenceExists: (subject: string, version: number, by: readonly { subject: string; version: number }[]) =>
    schemaRefused(
      "REFERENCE_EXISTS",
      `One or more references exist to the schema {subject=${quote(subject)},version=${version}}: ` +
        by
          .slice(0, 10)
          .map((r) => `version ${r.version} of subject ${quote(r.subject)}`)
          .join(", ") +
        (by.length > 10 ? `, and ${by.length - 10} more` : ""),
    ),
  notPermitted: (why: string) => schemaRefused("OPERATION_NOT_PERMITTED", why),
  invalidSchema: (why: string) => schemaRefused("INVALID_SCHEMA", why),
  incompatible: (subject: string, messages: string[]) =>
    schemaRefused(
      "INCOMPATIBLE",
      `Schema being registered is incompatible with an earlier schema for subject ${quote(subject)}, ` +
        `details: ${JSON.stringify(messages)}`,
      messages,
    ),
} satisfies Record<string, (...args: never[]) => SchemaManagerError>;
