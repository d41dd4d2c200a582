import { describe, expect, it } from "vitest";
import { isUuid } from "../src/index.ts";

describe("isUuid", () => {
  it("takes a UUID in either case", () => {
    expect(isUuid("0e6f1a52-3c1d-4b8e-9a57-2f4c8d1e6b30")).toBe(true);
    expect(isUuid("0E6F1A52-3C1D-4B8E-9A57-2F4C8D1E6B30")).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["no dashes", "0e6f1a523c1d4b8e9a572f4c8d1e6b30"],
    ["braces", "{0e6f1a52-3c1d-4b8e-9a57-2f4c8d1e6b30}"],
    ["a non-hex digit", "0e6f1a52-3c1d-4b8e-9a57-2f4c8d1e6b3g"],
    ["a trailing newline", "0e6f1a52-3c1d-4b8e-9a57-2f4c8d1e6b30\n"],
    ["a name", "registry:aws"],
  ])("refuses %s", (_, value) => {
    expect(isUuid(value)).toBe(false);
  });
});
