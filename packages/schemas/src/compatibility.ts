import { avroIncompatibilities } from "./avro/compatibility.ts";
import type { FormatIssue } from "./format-issue.ts";
import { jsonSchemaIncompatibilities } from "./json-schema/compatibility.ts";
import { formatOf } from "./parse.ts";
import { protobufIncompatibilities, reservedNumberReuse } from "./protobuf/compatibility.ts";
import type {
  CompatibilityDirection,
  CompatibilityIssue,
  CompatibilityLevel,
  CompatibilityResult,
  ParsedSchema,
} from "./types.ts";

export interface PreviousVersion {
  readonly version: number;
  readonly schema: ParsedSchema;
}

/**
 * Confluent's semantics: `previous` are the subject's live versions, oldest first; non-transitive
 * levels check only the latest. BACKWARD: the candidate reads data written with a previous version;
 * FORWARD: a previous version reads data written with the candidate; FULL: both.
 */
export function checkCompatibility(
  level: CompatibilityLevel,
  candidate: ParsedSchema,
  previous: readonly PreviousVersion[],
): CompatibilityResult {
  const issues: CompatibilityIssue[] = [];
  if (level !== "NONE") {
    const against = level.endsWith("_TRANSITIVE") ? [...previous].reverse() : previous.slice(-1);
    for (const { version, schema } of against) {
      for (const direction of directionsOf(level)) {
        issues.push(...checkPair(candidate, schema, version, direction));
      }
      issues.push(...historyIssues(candidate, schema, version));
    }
  }
  // FULL finds some issues both ways (a changed type): each is said once.
  const unique = [...new Map(issues.map((issue) => [issue.message, issue])).values()];
  return { compatible: unique.length === 0, messages: unique.map((issue) => issue.message), issues: unique };
}

function directionsOf(level: CompatibilityLevel): CompatibilityDirection[] {
  if (level.startsWith("BACKWARD")) return ["BACKWARD"];
  if (level.startsWith("FORWARD")) return ["FORWARD"];
  return ["BACKWARD", "FORWARD"];
}

/** Rules about what a new version may do whichever way data flows (Protobuf's reserved numbers). */
function historyIssues(candidate: ParsedSchema, old: ParsedSchema, version: number): CompatibilityIssue[] {
  const candidateFormat = formatOf(candidate);
  const oldFormat = formatOf(old);
  if (candidateFormat.type !== "PROTOBUF" || oldFormat.type !== "PROTOBUF") return [];
  return reservedNumberReuse(candidateFormat.proto, oldFormat.proto).map((issue) =>
    withVersion(issue, version, "BACKWARD"),
  );
}

function withVersion(
  issue: FormatIssue,
  version: number,
  direction: CompatibilityDirection,
): CompatibilityIssue {
  return {
    ...issue,
    version,
    direction,
    message: `version ${version}: ${issue.rule} at ${issue.path}: ${issue.detail}`,
  };
}

function checkPair(
  candidate: ParsedSchema,
  old: ParsedSchema,
  version: number,
  direction: CompatibilityDirection,
): CompatibilityIssue[] {
  const found =
    candidate.type === old.type
      ? formatIssues(candidate, old, version, direction)
      : [
          {
            rule: "SCHEMA_TYPE_CHANGED",
            path: "/",
            detail: `version ${version} is ${old.type}, the new schema is ${candidate.type}`,
          },
        ];
  return found.map((issue) => withVersion(issue, version, direction));
}

function formatIssues(
  candidate: ParsedSchema,
  old: ParsedSchema,
  version: number,
  direction: CompatibilityDirection,
): FormatIssue[] {
  const backward = direction === "BACKWARD";
  const [reader, writer] = backward ? [candidate, old] : [old, candidate];
  const readerFormat = formatOf(reader);
  const writerFormat = formatOf(writer);
  const labels = backward
    ? { reader: "the new schema", writer: `version ${version}` }
    : { reader: `version ${version}`, writer: "the new schema" };
  if (readerFormat.type === "AVRO" && writerFormat.type === "AVRO") {
    return avroIncompatibilities(readerFormat.avro.type, writerFormat.avro.type, labels);
  }
  // These rules describe changes from the writer's schema to the reader's: say which way.
  const going = ` (going from ${labels.writer} to ${labels.reader})`;
  const changes =
    readerFormat.type === "JSON" && writerFormat.type === "JSON"
      ? jsonSchemaIncompatibilities(readerFormat.json, writerFormat.json)
      : readerFormat.type === "PROTOBUF" && writerFormat.type === "PROTOBUF"
        ? protobufIncompatibilities(readerFormat.proto, writerFormat.proto)
        : [];
  return changes.map((issue) => ({ ...issue, detail: issue.detail + going }));
}
