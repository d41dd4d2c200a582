import { describe, expect, it } from "vitest";
import { ErrorCode, REQUEST_ERROR_CODES } from "@stream-registry/core";
import { ExitCode, exitCodeFor, exitCodeHelp } from "../src/exit-codes.ts";

describe("exitCodeFor", () => {
  it("gives every registry code its category; only INTERNAL_SERVER_ERROR is internal", () => {
    const internal = Object.values(ErrorCode).filter((code) => exitCodeFor(code) === ExitCode.INTERNAL);
    expect(internal).toEqual([ErrorCode.INTERNAL_SERVER_ERROR]);
  });

  it("places the codes the next issues need", () => {
    expect(exitCodeFor(ErrorCode.CHILD_UNAVAILABLE)).toBe(ExitCode.UNAVAILABLE);
    expect(exitCodeFor(ErrorCode.UNSUPPORTED)).toBe(ExitCode.UNSUPPORTED);
    expect(exitCodeFor(ErrorCode.INCOMPATIBLE)).toBe(ExitCode.BAD_INPUT);
    expect(exitCodeFor(ErrorCode.UNAUTHENTICATED)).toBe(ExitCode.DENIED);
    expect(exitCodeFor(ErrorCode.FORBIDDEN)).toBe(ExitCode.DENIED);
  });

  it("knows Apollo Server's request-level codes", () => {
    expect(exitCodeFor("GRAPHQL_PARSE_FAILED")).toBe(ExitCode.BAD_INPUT);
    expect(exitCodeFor("GRAPHQL_VALIDATION_FAILED")).toBe(ExitCode.UNSUPPORTED);
    for (const code of REQUEST_ERROR_CODES) expect(exitCodeFor(code)).not.toBeUndefined();
  });

  it("takes an unknown or missing code, even an Object.prototype name, as internal", () => {
    expect(exitCodeFor("SOMETHING_NEW")).toBe(ExitCode.INTERNAL);
    expect(exitCodeFor("toString")).toBe(ExitCode.INTERNAL);
    expect(exitCodeFor(undefined)).toBe(ExitCode.INTERNAL);
  });
});

describe("exitCodeHelp", () => {
  it("has a line for every exit code", () => {
    const numbers = Object.values(ExitCode).filter((v): v is number => typeof v === "number");
    for (const n of numbers) expect(exitCodeHelp).toMatch(new RegExp(`^\\s*${n} `, "m"));
  });

  it("names every registry code", () => {
    const unnamed = Object.values(ErrorCode).filter((code) => !exitCodeHelp.includes(code));
    expect(unnamed).toEqual([]);
  });
});
