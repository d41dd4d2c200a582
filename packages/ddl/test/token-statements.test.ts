import { describe, expect, it } from "vitest";
import { DdlSyntaxError, parse, print, type Statement } from "../src/index.ts";
import { withoutSpans } from "./support/seed-examples.ts";

function parseOne(text: string): Statement {
  const statements = parse(text);
  expect(statements).toHaveLength(1);
  return withoutSpans(statements[0]!);
}

const CASES: Array<[string, Record<string, unknown>]> = [
  ['CREATE TOKEN "ci";', { kind: "createToken", token: "ci" }],
  ['create token "ci" groups ("deployers")', { kind: "createToken", token: "ci", groups: ["deployers"] }],
  [
    'CREATE TOKEN "ci" GROUPS ("a", "b") EXPIRES IN 90 DAYS;',
    { kind: "createToken", token: "ci", groups: ["a", "b"], expiresInDays: 90 },
  ],
  [
    'CREATE TOKEN "ci" EXPIRES IN 1 DAY GROUPS ("a");',
    { kind: "createToken", token: "ci", groups: ["a"], expiresInDays: 1 },
  ],
  ['REVOKE TOKEN "ci";', { kind: "revokeToken", token: "ci" }],
  ["SHOW TOKENS;", { kind: "showTokens" }],
  ["rotate registry key", { kind: "rotateRegistryKey" }],
];

describe("token statements", () => {
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
    expect(print(parseOne('create token "ci" expires in 7 days groups ("x")'))).toBe(
      'CREATE TOKEN "ci" GROUPS ("x") EXPIRES IN 7 DAYS;',
    );
  });

  it.each([
    ['CREATE TOKEN "ci" EXPIRES IN 0 DAYS;', /a whole number of days from 1 to 3650/],
    ['CREATE TOKEN "ci" EXPIRES IN 1.5 DAYS;', /a whole number of days from 1 to 3650/],
    ['CREATE TOKEN "ci" EXPIRES IN 3651 DAYS;', /a whole number of days from 1 to 3650/],
    ['CREATE TOKEN "ci" EXPIRES 90 DAYS;', /expected "IN"/],
    ['CREATE TOKEN "ci" GROUPS ();', /a quoted group name/],
    ['CREATE TOKEN "ci" GROUPS ("a") GROUPS ("b");', /expected .*";"/],
    ["CREATE TOKEN ci;", /names are written in double quotes/],
    ["REVOKE TOKEN;", /a quoted token name/],
    ['REVOKE "ci";', /"TOKEN"/],
    ["ROTATE KEY;", /"REGISTRY"/],
  ])("refuses %s, saying what it expected", (text, message) => {
    expect(() => parse(text)).toThrow(DdlSyntaxError);
    expect(() => parse(text)).toThrow(message);
  });
});
