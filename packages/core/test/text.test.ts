import { describe, expect, it } from "vitest";
import { checkConfigMaps } from "../src/config-maps.ts";
import { textProblem } from "../src/text.ts";

describe("textProblem", () => {
  it.each([
    ["a NUL", "a\u0000b", "NUL"],
    ["a lone high surrogate", "\ud800", "surrogate"],
    ["a lone low surrogate", "x\udc00", "surrogate"],
    ["surrogates in the wrong order", "\udc00\ud800", "surrogate"],
  ])("names %s", (_label, text, word) => {
    expect(textProblem(text)).toContain(word);
  });

  it.each(["", "plain", "emoji \u{1f600}", "\ud83d\ude00", "ünïcødé"])("accepts %j", (text) => {
    expect(textProblem(text)).toBeUndefined();
  });

  it("is what config maps check keys and values with", () => {
    expect(checkConfigMaps({ m: { "\ud800": "v", k: "\udfff" } }, ["c"])).toEqual([
      expect.objectContaining({ field: ["c", "m", "\ud800"], message: expect.stringContaining("surrogate") }),
      expect.objectContaining({ field: ["c", "m", "k"], message: expect.stringContaining("surrogate") }),
    ]);
  });
});
