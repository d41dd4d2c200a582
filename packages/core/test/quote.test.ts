import { describe, expect, it } from "vitest";
import { quote } from "../src/quote.ts";

describe("quote", () => {
  it.each([
    ["widgets_v0", '"widgets_v0"'],
    ["", '""'],
    ['a"b', '"a\\"b"'],
    ["line\nbreak\t", '"line\\nbreak\\t"'],
    ["\u0000", '"\\u0000"'],
    ["ключ 🚀", '"ключ 🚀"'],
    ["\ud800", '"\\ud800"'],
  ])("quotes %j as %s", (text, quoted) => {
    expect(quote(text)).toBe(quoted);
  });

  it("keeps 64 characters whole and truncates 65 with an ellipsis", () => {
    expect(quote("x".repeat(64))).toBe(`"${"x".repeat(64)}"`);
    expect(quote("x".repeat(65))).toBe(`"${"x".repeat(64)}"…`);
  });

  it("truncates by characters, never splitting an emoji", () => {
    expect(quote("🚀".repeat(3), 2)).toBe('"🚀🚀"…');
  });
});
