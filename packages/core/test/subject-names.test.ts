import { describe, expect, it } from "vitest";
import {
  checkSubjectNameStrategy,
  needsRecordName,
  subjectName,
  subjectNameStrategyOf,
  SUBJECT_NAME_STRATEGIES,
} from "../src/index.ts";

const type = { role: "type", typeName: "Widget" } as const;
const key = { role: "key" } as const;

describe("subjectName", () => {
  it.each([
    ["TYPE_NAME", type, "com.acme.Widget", "widgets_v0-Widget"],
    ["TOPIC_NAME", type, "com.acme.Widget", "widgets_v0-value"],
    ["RECORD_NAME", type, "com.acme.Widget", "com.acme.Widget"],
    ["TOPIC_RECORD_NAME", type, "com.acme.Widget", "widgets_v0-com.acme.Widget"],
    ["TYPE_NAME", key, undefined, "widgets_v0-key"],
    ["TOPIC_NAME", key, "com.acme.Key", "widgets_v0-key"],
    ["TOPIC_RECORD_NAME", key, "com.acme.Key", "widgets_v0-key"],
    ["RECORD_NAME", key, "com.acme.Key", "com.acme.Key"],
    ["RECORD_NAME", key, undefined, "widgets_v0-key"],
  ] as const)("%s names %j %s", (strategy, role, record, expected) => {
    expect(subjectName("widgets_v0", strategy, role, record)).toBe(expected);
  });

  it("has no subject for a record strategy without a record name", () => {
    expect(subjectName("s", "RECORD_NAME", type, undefined)).toBeUndefined();
    expect(subjectName("s", "TOPIC_RECORD_NAME", type, undefined)).toBeUndefined();
    expect(needsRecordName("RECORD_NAME", type)).toBe(true);
    expect(needsRecordName("TOPIC_NAME", type)).toBe(false);
    expect(needsRecordName("RECORD_NAME", key)).toBe(false);
  });
});

describe("a stream's strategy", () => {
  it("defaults to the seed's per-type subjects", () => {
    expect(subjectNameStrategyOf({})).toBe("TYPE_NAME");
    for (const s of SUBJECT_NAME_STRATEGIES)
      expect(subjectNameStrategyOf({ schemas: { "subject.name.strategy": s } })).toBe(s);
  });

  it("refuses an unknown strategy or key, naming the field", () => {
    expect(
      checkSubjectNameStrategy({ schemas: { "subject.name.strategy": "TopicNameStrategy" } }, [
        "input",
        "config",
      ]),
    ).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "config", "schemas", "subject.name.strategy"],
      }),
    ]);
    expect(checkSubjectNameStrategy({ schemas: { other: 1 } }, ["input", "config"])[0]?.field).toEqual([
      "input",
      "config",
      "schemas",
      "other",
    ]);
    expect(checkSubjectNameStrategy({ other: { a: 1 } }, [])).toEqual([]);
  });
});
