import { describe, expect, it } from "vitest";
import { DdlSyntaxError, parse, print, type Statement } from "../src/index.ts";
import { withoutSpans } from "./support/seed-examples.ts";

function parseOne(text: string): Statement {
  const statements = parse(text);
  expect(statements).toHaveLength(1);
  return withoutSpans(statements[0]!);
}

const CASES: Array<[string, Record<string, unknown>]> = [
  ["SHOW STREAM SOURCES;", { kind: "showStreamSources" }],
  ['show stream sources like "widgets%"', { kind: "showStreamSources", like: "widgets%" }],
  ["SHOW STREAM SINKS;", { kind: "showStreamSinks" }],
  ['SHOW STREAM SINKS LIKE "w_";', { kind: "showStreamSinks", like: "w_" }],
  ['PAUSE STREAM SOURCE "src";', { kind: "pauseStreamSource", source: "src" }],
  ['RESUME STREAM SOURCE "src";', { kind: "resumeStreamSource", source: "src" }],
  ['STOP STREAM SOURCE "src";', { kind: "stopStreamSource", source: "src" }],
  ['RESTART STREAM SOURCE "src";', { kind: "restartStreamSource", source: "src", onlyFailed: false }],
  [
    'restart stream source "src" only failed',
    { kind: "restartStreamSource", source: "src", onlyFailed: true },
  ],
  ['pause stream sink "snk"', { kind: "pauseStreamSink", sink: "snk" }],
  ['RESUME STREAM SINK "snk";', { kind: "resumeStreamSink", sink: "snk" }],
  ['STOP STREAM SINK "snk";', { kind: "stopStreamSink", sink: "snk" }],
  ['RESTART STREAM SINK "snk";', { kind: "restartStreamSink", sink: "snk", onlyFailed: false }],
  ['RESTART STREAM SINK "snk" ONLY FAILED;', { kind: "restartStreamSink", sink: "snk", onlyFailed: true }],
];

describe("stream source and sink listing and run-state statements", () => {
  for (const [text, tree] of CASES) {
    it(`parses ${text}`, () => {
      expect(parseOne(text)).toStrictEqual(tree);
    });
  }

  it("prints what parses back to the same statement, in canonical form", () => {
    for (const [text] of CASES) {
      const statement = parseOne(text);
      expect(withoutSpans(parseOne(print(statement)))).toStrictEqual(statement);
    }
    expect(print(parseOne('restart stream source "src" only failed'))).toBe(
      'RESTART STREAM SOURCE "src" ONLY FAILED;',
    );
    expect(print(parseOne('show stream sinks like "w%"'))).toBe('SHOW STREAM SINKS LIKE "w%";');
  });

  it("ends a statement at PAUSE, RESUME, STOP or RESTART on a new line, as at any statement keyword", () => {
    const script = [
      'CREATE STREAM SOURCE "s" WITH TYPE "file" ON CLUSTER "c"',
      'PAUSE STREAM SOURCE "s"',
      'RESUME STREAM SOURCE "s"',
      'STOP STREAM SINK "k"',
      'RESTART STREAM SINK "k"',
      'RESUME CHILD REGISTRY "/aws"',
    ].join("\n");
    expect(parse(script).map((s) => s.kind)).toEqual([
      "createStreamSource",
      "pauseStreamSource",
      "resumeStreamSource",
      "stopStreamSink",
      "restartStreamSink",
      "resumeChildRegistry",
    ]);
  });

  it("records the span of a run-state statement, ONLY FAILED included", () => {
    const text = 'SHOW STREAMS;\n  RESTART STREAM SINK "k" ONLY FAILED ;';
    const [, restart] = parse(text);
    expect(restart!.span).toMatchObject({ line: 2, column: 3 });
    expect(text.slice(restart!.span.offset, restart!.span.endOffset)).toBe(
      'RESTART STREAM SINK "k" ONLY FAILED ;',
    );
  });

  it.each([
    ['PAUSE SOURCE "s";', 'x.sql:1:7: expected "STREAM", found "SOURCE"'],
    ['PAUSE STREAM "s";', 'x.sql:1:14: expected one of "SOURCE", "SINK", found string "s"'],
    ["STOP STREAM SINK;", 'x.sql:1:17: expected a quoted stream sink name, found ";"'],
    ['RESUME "s";', 'x.sql:1:8: expected one of "STREAM", "CHILD", found string "s"'],
    ['RESTART STREAM SOURCE "s" ONLY;', 'x.sql:1:31: expected "FAILED", found ";"'],
    ['RESTART STREAM SOURCE "s" FAILED;', 'x.sql:1:27: expected one of "ONLY", ";", found "FAILED"'],
    ['PAUSE STREAM SOURCE "s" ONLY FAILED;', 'x.sql:1:25: expected ";", found "ONLY"'],
    [
      "PAUSE STREAM SINK s;",
      'x.sql:1:19: expected a quoted stream sink name, found "s" (names are written in double quotes: "s")',
    ],
    ["SHOW STREAM TYPES;", 'x.sql:1:13: expected one of "SOURCES", "SINKS", found "TYPES"'],
    ["SHOW STREAM SOURCES LIKE;", 'x.sql:1:25: expected a quoted LIKE pattern, found ";"'],
  ])("refuses %s, saying where and what it expected", (text, message) => {
    expect(() => parse(text, { fileName: "x.sql" })).toThrow(DdlSyntaxError);
    expect(() => parse(text, { fileName: "x.sql" })).toThrow(message);
  });
});
