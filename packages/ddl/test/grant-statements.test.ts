import { describe, expect, it } from "vitest";
import { DdlSyntaxError, parse, print, type Statement } from "../src/index.ts";
import { withoutSpans } from "./support/seed-examples.ts";

function parseOne(text: string): Statement {
  const statements = parse(text);
  expect(statements).toHaveLength(1);
  return withoutSpans(statements[0]!);
}

const CASES: Array<[string, Record<string, unknown>]> = [
  [
    'GRANT WRITER ON NAMESPACE "/aws" STREAMS "widgets_" TO GROUP "devs";',
    { kind: "grant", role: "writer", namespace: "/aws", streamPrefix: "widgets_", principal: "group:devs" },
  ],
  ['grant reader to user "alice"', { kind: "grant", role: "reader", principal: "user:alice" }],
  [
    'GRANT ADMIN ON NAMESPACE "/" TO TOKEN "ci";',
    { kind: "grant", role: "admin", namespace: "/", principal: "token:ci" },
  ],
  [
    'GRANT READER STREAMS "w" TO USER "auth0|5f7c";',
    { kind: "grant", role: "reader", streamPrefix: "w", principal: "user:auth0|5f7c" },
  ],
  [
    'REVOKE WRITER ON NAMESPACE "/aws" FROM GROUP "devs";',
    { kind: "revoke", role: "writer", namespace: "/aws", principal: "group:devs" },
  ],
  ["SHOW GRANTS;", { kind: "showGrants" }],
  ['SHOW GRANTS ON NAMESPACE "/aws";', { kind: "showGrants", namespace: "/aws" }],
  [
    'SHOW GRANTS ON NAMESPACE "/aws" FOR TOKEN "ci";',
    { kind: "showGrants", namespace: "/aws", principal: "token:ci" },
  ],
  ['SHOW GRANTS FOR GROUP "devs";', { kind: "showGrants", principal: "group:devs" }],
  // Issuer-qualified (docs/security.md, "Across the tree"): the root's token, another IdP's user.
  ['GRANT ADMIN TO TOKEN "admin@/";', { kind: "grant", role: "admin", principal: "token:admin@/" }],
  [
    'SHOW GRANTS FOR USER "bob@https://login.other.example";',
    { kind: "showGrants", principal: "user:bob@https://login.other.example" },
  ],
  // REVOKE TOKEN is another statement: API tokens.
  ['REVOKE TOKEN "ci";', { kind: "revokeToken", token: "ci" }],
];

describe("grant statements", () => {
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
    expect(print(parseOne('grant writer on namespace "/a" streams "w_" to group "g"'))).toBe(
      'GRANT WRITER ON NAMESPACE "/a" STREAMS "w_" TO GROUP "g";',
    );
  });

  it.each([
    ['GRANT OWNER TO USER "a";', /expected one of "READER", "WRITER", "ADMIN", found "OWNER"/],
    ['GRANT READER TO "a";', /expected one of "USER", "GROUP", "TOKEN", found string "a"/],
    ['GRANT READER ON "/aws" TO USER "a";', /"NAMESPACE"/],
    ['GRANT READER ON NAMESPACE "" TO USER "a";', /the namespace path must not be empty/],
    ['GRANT READER ON NAMESPACE aws TO USER "a";', /a quoted namespace path/],
    ['GRANT READER FROM USER "a";', /"TO"/],
    ['REVOKE READER TO USER "a";', /"FROM"/],
    ['GRANT WRITER STREAMS "" TO USER "a";', /must not be empty/],
    ['GRANT READER TO USER "";', /must not be empty/],
    ['REVOKE "x";', /"TOKEN"/],
  ])("refuses %s, saying what it expected", (text, message) => {
    expect(() => parse(text)).toThrow(DdlSyntaxError);
    expect(() => parse(text)).toThrow(message);
  });
});
