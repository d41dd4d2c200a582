import { describe, expect, it } from "vitest";
import { ErrorCode, RegistryError } from "../src/errors.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, checkPageSize } from "../src/pagination.ts";

function pageSizeError(first: number, field?: string[]): RegistryError {
  try {
    checkPageSize(first, field);
  } catch (error) {
    if (error instanceof RegistryError) return error;
    throw error;
  }
  throw new Error(`page size ${first} was accepted`);
}

describe("checkPageSize", () => {
  it("has the agreed limits", () => {
    expect(DEFAULT_PAGE_SIZE).toBe(50);
    expect(MAX_PAGE_SIZE).toBe(500);
  });

  it.each([null, undefined])("defaults %s to the default page size", (first) => {
    expect(checkPageSize(first)).toBe(50);
  });

  it.each([0, 1, 50, 499, 500])("accepts %i", (first) => {
    expect(checkPageSize(first)).toBe(first);
  });

  it.each([-1, 501, 10_000, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects %s", (first) => {
    const error = pageSizeError(first);
    expect(error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error.field).toEqual(["first"]);
    expect(error.message).toBe(
      `first must be an integer from 0 to 500 (the maximum page size), got ${first}`,
    );
  });

  it("reports at, and names, the caller's field", () => {
    const error = pageSizeError(501, ["input", "last"]);
    expect(error.field).toEqual(["input", "last"]);
    expect(error.message).toMatch(/^last must be/);
  });
});
