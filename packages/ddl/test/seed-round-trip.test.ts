import { describe, expect, it } from "vitest";
import { DdlSyntaxError, parse, print, printScript } from "../src/index.ts";
import { readSeedExamples, withoutSpans } from "./support/seed-examples.ts";

const examples = readSeedExamples();

/**
 * Examples the seed elides with `...` ("CREATE STREAM "widgets_v0" ...;", "... -- override ... here"
 * inside config blocks). They are not DDL: parsing them must fail with a syntax error at the `...`.
 * With the `...` removed (the rest of such lines is a `--` comment) they are real statements and
 * must round-trip like the others.
 */
const ELIDED: Record<number, string> = {
  2: "CREATE STREAM with its clauses elided",
  32: "CREATE BINDING with config overrides elided",
  39: "CREATE STREAM SOURCE with config entries elided",
  42: "UPDATE STREAM SOURCE with config entries elided",
  45: "CREATE STREAM SINK with config entries elided",
  48: "UPDATE STREAM SINK with config entries elided",
};

/**
 * The seed's DECLARE PARENT REGISTRY examples, written before a parent asked for an enrollment
 * token. The DDL now requires WITH TOKEN: they must fail saying so, and round-trip with one added.
 */
const WITHOUT_TOKEN = [5, 9, 12, 15, 18, 20, 22];

/** An example as it must be written today: the `...` removed, the token added where it lacks one. */
function completed(example: { index: number; text: string }): string {
  const text = example.text.replaceAll("...", "");
  return WITHOUT_TOKEN.includes(example.index) ? text.replace(/;$/, ' WITH TOKEN "enroll-me";') : text;
}

function expectRoundTrip(text: string): void {
  const [statement, ...rest] = parse(text);
  expect(rest).toEqual([]);
  const printed = print(statement!);
  const reparsed = parse(printed);
  expect(reparsed).toHaveLength(1);
  expect(withoutSpans(reparsed[0])).toEqual(withoutSpans(statement));
  expect(print(reparsed[0]!)).toBe(printed);
}

describe("seed 000 statement examples", () => {
  it("the fixture holds all 58 examples of the seed, elided ones where expected", () => {
    expect(examples).toHaveLength(58);
    const elided = examples.filter((example) => example.text.includes("...")).map((example) => example.index);
    expect(elided).toEqual(Object.keys(ELIDED).map(Number));
    const parents = examples.filter((example) => example.text.startsWith("DECLARE PARENT REGISTRY"));
    expect(parents.map((example) => example.index)).toEqual(WITHOUT_TOKEN);
  });

  for (const example of examples) {
    const title = `#${example.index} (fixture line ${example.fixtureLine}): ${example.text.split("\n")[0]}`;
    const reason = ELIDED[example.index];
    if (WITHOUT_TOKEN.includes(example.index)) {
      it(`rejects ${title} for want of its token`, () => {
        const error = captureError(() => parse(example.text, { fileName: "seed.sql" }));
        expect(error).toMatchObject({ expected: ['"WITH"'], found: '";"' });
        expect(error.message).toContain('WITH TOKEN "<token>"');
      });
      it(`round-trips ${title} with a token added`, () => expectRoundTrip(completed(example)));
    } else if (reason === undefined) {
      it(`round-trips ${title}`, () => expectRoundTrip(example.text));
    } else {
      it(`rejects the elided ${title} (${reason}) at the "..."`, () => {
        const at = example.text.indexOf("...");
        const line = example.text.slice(0, at).split("\n").length;
        const column = at - example.text.lastIndexOf("\n", at - 1);
        const error = captureError(() => parse(example.text, { fileName: "seed.sql" }));
        expect(error).toBeInstanceOf(DdlSyntaxError);
        expect(error).toMatchObject({ fileName: "seed.sql", line, column, found: '"..."' });
        expect(error.message).toContain("elided");
      });
      it(`round-trips ${title} with the "..." removed`, () =>
        expectRoundTrip(example.text.replaceAll("...", "")));
    }
  }

  it("parses the examples as one script, relying on the missing-`;` rule where the seed omits it", () => {
    const script = examples.map(completed).join("\n");
    const statements = parse(script, { fileName: "seed.sql" });
    expect(statements.map((statement) => statement.kind)).toEqual(
      examples.map((example) => parse(completed(example))[0]!.kind),
    );
    expect(withoutSpans(parse(printScript(statements)))).toEqual(withoutSpans(statements));
  });

  it("covers every statement kind but the planned discovery, delete and drop forms the seed has no example of", () => {
    const kinds = new Set(examples.map((example) => parse(completed(example))[0]!.kind));
    expect([...kinds].sort()).toEqual(
      [
        "createBinding",
        "createStream",
        "createStreamRelocation",
        "createStreamSink",
        "createStreamSource",
        "declareCluster",
        "declareDefaultNamespace",
        "declareParentRegistry",
        "deleteStreamSink",
        "deleteStreamSource",
        "describeBindings",
        "describeStreamRelocation",
        "describeStreamSink",
        "describeStreamSource",
        "registerKeySchema",
        "registerTypeSchema",
        "replicateBinding",
        "showNamespace",
        "showReplications",
        "showSinkTypes",
        "showSourceTypes",
        "updateStreamSink",
        "updateStreamSource",
      ].sort(),
    );
  });
});

function captureError(fn: () => unknown): DdlSyntaxError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DdlSyntaxError) return error;
    throw error;
  }
  throw new Error("expected a DdlSyntaxError, but parsing succeeded");
}
