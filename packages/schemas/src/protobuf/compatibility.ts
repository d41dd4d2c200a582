import type { FormatIssue } from "../format-issue.ts";
import { protobufDifferences } from "./diff.ts";
import { COMPATIBLE, INCOMPATIBLE } from "./differences.ts";
import type { ProtoMessage } from "./model.ts";
import type { ProtoParsed } from "./parse.ts";

/** What keeps `reader` from reading data written with `writer`, by Confluent's Protobuf rules. */
export function protobufIncompatibilities(reader: ProtoParsed, writer: ProtoParsed): FormatIssue[] {
  const seen = new Set<string>();
  const issues: FormatIssue[] = [];
  for (const difference of protobufDifferences(writer.file, reader.file)) {
    const key = `${difference.type} ${difference.path}`;
    if (COMPATIBLE.has(difference.type) || seen.has(key)) continue;
    seen.add(key);
    issues.push({
      rule: difference.type,
      path: difference.path,
      detail: INCOMPATIBLE[difference.type] ?? "",
    });
  }
  return issues;
}

/**
 * A rule of history rather than of reading: the candidate must not give a field a number that a
 * previous version reserved (data with that number's old meaning may still be about).
 */
export function reservedNumberReuse(candidate: ProtoParsed, previous: ProtoParsed): FormatIssue[] {
  const issues: FormatIssue[] = [];
  const visit = (before: readonly ProtoMessage[], after: readonly ProtoMessage[], path: string): void => {
    const byName = new Map(after.map((message) => [message.name, message]));
    for (const old of before) {
      const now = byName.get(old.name);
      if (!now) continue;
      const reservedBefore = (n: number) => old.reserved.some(([from, to]) => n >= from && n <= to);
      for (const field of now.fields) {
        if (!reservedBefore(field.number)) continue;
        issues.push({
          rule: "RESERVED_FIELD_NUMBER_REUSED",
          path: `${path}/${old.name}/${field.number}`,
          detail: `field "${field.name}" uses number ${field.number}, which the previous version reserved`,
        });
      }
      visit(old.messages, now.messages, `${path}/${old.name}`);
    }
  };
  visit(previous.file.messages, candidate.file.messages, "#");
  return issues;
}
