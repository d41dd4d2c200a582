import { describe, expect, it } from "vitest";
import { parse } from "../src/index.ts";
import { withoutSpans } from "./support/seed-examples.ts";

const kinds = (text: string): string[] => parse(text).map((statement) => statement.kind);

describe("lexical rules", () => {
  it("reads keywords in any case, names exactly as written", () => {
    expect(withoutSpans(parse('create Stream "Widgets_V0" with Producer CONFIG {};'))).toEqual([
      { kind: "createStream", stream: "Widgets_V0", producerConfig: {} },
    ]);
    expect(withoutSpans(parse('show replications on cluster "C";'))).toEqual([
      { kind: "showReplications", cluster: "C" },
    ]);
  });

  it("decodes JSON escapes in names and config strings", () => {
    const [statement] = withoutSpans(
      parse(String.raw`UPDATE STREAM "a\"b\\c\/d" WITH CONFIG {"k\tey": {"v": "line\nnext \u00e9\u0041"}};`),
    );
    expect(statement).toEqual({
      kind: "updateStream",
      stream: 'a"b\\c/d',
      config: { "k\tey": { v: "line\nnext éA" } },
    });
  });

  it("allows trailing commas in objects and arrays", () => {
    const [statement] = withoutSpans(
      parse('CREATE STREAM "s" WITH CONFIG {"a": {"l": [1, 2,], "x": "y",},};'),
    );
    expect(statement).toEqual({ kind: "createStream", stream: "s", config: { a: { l: [1, 2], x: "y" } } });
  });

  it("skips `--` comments to the end of the line, also inside config blocks", () => {
    const text = [
      "-- a script",
      'CREATE STREAM "s" -- the stream',
      "WITH CONFIG { -- maps",
      '  "a": { "x": "--not a comment--" }, -- trailing',
      "}; -- done",
      "-- the end",
    ].join("\n");
    expect(withoutSpans(parse(text))).toEqual([
      { kind: "createStream", stream: "s", config: { a: { x: "--not a comment--" } } },
    ]);
  });

  it("accepts an empty script, comment-only scripts and stray semicolons", () => {
    expect(parse("")).toEqual([]);
    expect(parse("  -- nothing\n\n")).toEqual([]);
    expect(kinds(";;SHOW CLUSTERS;;;SHOW STREAMS;")).toEqual(["showClusters", "showStreams"]);
  });

  it("reads CRLF line endings and a byte-order mark", () => {
    expect(kinds('\uFEFFSHOW NAMESPACE\r\nDECLARE CLUSTER "c"\r\n')).toEqual([
      "showNamespace",
      "declareCluster",
    ]);
  });

  it("reads a bare FILE path up to whitespace, `)` or a comment", () => {
    const [statement] = withoutSpans(
      parse('REGISTER KEY SCHEMA (FILE a/b.c-d_1.avsc-- note\n) ON STREAM "s"'),
    );
    expect(statement).toMatchObject({ schema: { kind: "file", path: "a/b.c-d_1.avsc" } });
  });
});

describe("the missing-semicolon rule", () => {
  it("ends a statement at the end of the input", () => {
    expect(kinds("SHOW NAMESPACE")).toEqual(["showNamespace"]);
  });

  it("ends a statement before a statement keyword that starts a new line (the seed's style)", () => {
    const seed =
      'SHOW NAMESPACE\nDECLARE DEFAULT NAMESPACE "us-reg1-xyz"\nDECLARE PARENT REGISTRY "https://r" WITH TOKEN "t";\nSHOW NAMESPACE';
    expect(kinds(seed)).toEqual([
      "showNamespace",
      "declareDefaultNamespace",
      "declareParentRegistry",
      "showNamespace",
    ]);
  });

  it("continues a statement over lines when the next line does not start a statement", () => {
    expect(withoutSpans(parse('DELETE STREAM "s"\n  CASCADE\nSHOW REPLICATIONS\n  ON CLUSTER "c"'))).toEqual([
      { kind: "deleteStream", stream: "s", cascade: true },
      { kind: "showReplications", cluster: "c" },
    ]);
  });

  it("requires `;` between statements on the same line", () => {
    expect(() => parse("SHOW NAMESPACE SHOW CLUSTERS")).toThrow('<input>:1:16: expected ";", found "SHOW"');
  });

  it("does not end a statement at a statement keyword inside a config block", () => {
    const [statement] = withoutSpans(
      parse('CREATE STREAM "s" WITH CONFIG {\n"m": {\n"k": "SHOW"\n}\n}\nSHOW CLUSTERS'),
    );
    expect(statement).toEqual({ kind: "createStream", stream: "s", config: { m: { k: "SHOW" } } });
  });
});
