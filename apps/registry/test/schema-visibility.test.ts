import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { asksForSchema, withoutSuggestions } from "../src/graphql/guards/schema-visibility.ts";

describe("what shows the schema (production: admins and the parent only)", () => {
  it.each([
    ["{ __schema { queryType { name } } }", true],
    ['{ t: __type(name: "Stream") { name } }', true],
    ["{ _service { sdl } }", true],
    ["query { ...F } fragment F on Query { __schema { types { name } } }", true],
    ["{ streams { nodes { name __typename } } }", false],
    ["{ __typename }", false],
    ["{ _entities(representations: []) { __typename } }", false],
  ])("%s: %s", (query, asks) => {
    expect(asksForSchema(parse(query))).toBe(asks);
  });

  it.each([
    [
      'Cannot query field "streamz" on type "Query". Did you mean "streams"?',
      'Cannot query field "streamz" on type "Query".',
    ],
    [
      'Value "LIVEE" does not exist in "Consistency" enum. Did you mean the enum value "LIVE"?',
      'Value "LIVEE" does not exist in "Consistency" enum.',
    ],
    ['stream "x" does not exist', 'stream "x" does not exist'],
  ])("cuts the suggestion of %j", (message, cut) => {
    expect(withoutSuggestions(message)).toBe(cut);
  });
});
