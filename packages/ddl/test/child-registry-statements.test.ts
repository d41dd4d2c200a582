import { describe, expect, it } from "vitest";
import { DdlSyntaxError, parse, print, type Statement } from "../src/index.ts";
import { withoutSpans } from "./support/seed-examples.ts";

function parseOne(text: string): Statement {
  const statements = parse(text);
  expect(statements).toHaveLength(1);
  return withoutSpans(statements[0]!);
}

const CASES: Array<[string, Record<string, unknown>]> = [
  ["SHOW CHILD REGISTRIES;", { kind: "showChildRegistries" }],
  ['SUSPEND CHILD REGISTRY "/aws";', { kind: "suspendChildRegistry", path: "/aws" }],
  ['resume child registry "/aws"', { kind: "resumeChildRegistry", path: "/aws" }],
  ['DROP CHILD REGISTRY "/aws/us-reg1-xyz";', { kind: "dropChildRegistry", path: "/aws/us-reg1-xyz" }],
];

describe("child registry statements", () => {
  for (const [text, tree] of CASES) {
    it(`parses ${text}`, () => {
      expect(parseOne(text)).toStrictEqual(tree);
    });
  }

  it("prints what parses back to the same statement", () => {
    for (const [text] of CASES) {
      const statement = parseOne(text);
      expect(withoutSpans(parseOne(print(statement)))).toStrictEqual(statement);
    }
    expect(print(parseOne('suspend child registry "/aws"'))).toBe('SUSPEND CHILD REGISTRY "/aws";');
  });

  it("ends a statement at SUSPEND or RESUME on a new line, as at any statement keyword", () => {
    expect(
      parse('SUSPEND CHILD REGISTRY "/aws"\nRESUME CHILD REGISTRY "/aws"\nSHOW CHILD REGISTRIES').map(
        (s) => s.kind,
      ),
    ).toEqual(["suspendChildRegistry", "resumeChildRegistry", "showChildRegistries"]);
    expect(parseOne("DROP PARENT REGISTRY")).toStrictEqual({ kind: "dropParentRegistry" });
  });

  it.each([
    ["SUSPEND CHILD REGISTRY;", /a quoted child registry namespace/],
    ['SUSPEND REGISTRY "/aws";', /"CHILD"/],
    ['RESUME CHILD "/aws";', /"REGISTRY"/],
    ["DROP CHILD REGISTRY aws;", /names are written in double quotes/],
    ["DROP REGISTRY;", /"CHILD".*"PARENT"|"PARENT".*"CHILD"/],
    ["SHOW CHILD REGISTRY;", /"REGISTRIES"/],
  ])("refuses %s, saying what it expected", (text, message) => {
    expect(() => parse(text)).toThrow(DdlSyntaxError);
    expect(() => parse(text)).toThrow(message);
  });
});
