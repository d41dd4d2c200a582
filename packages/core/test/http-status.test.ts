import { describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors.ts";
import { httpStatusOf, isErrorCode, isFaultCode } from "../src/http-status.ts";
import { isRequestErrorCode, REQUEST_ERROR_CODES } from "../src/request-error-codes.ts";

describe("httpStatusOf", () => {
  it("gives the agreed statuses for faults and request refusals", () => {
    expect(httpStatusOf).toMatchObject({
      DATABASE_UNAVAILABLE: 503,
      PROVIDER_UNAVAILABLE: 503,
      CHILD_UNAVAILABLE: 502,
      INTERNAL_SERVER_ERROR: 500,
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      QUERY_LIMIT_EXCEEDED: 400,
      RATE_LIMITED: 429,
      INVALID_INPUT: 400,
      NOT_FOUND: 404,
    });
  });

  it("has a status for every code and for nothing else", () => {
    expect(Object.keys(httpStatusOf).sort()).toEqual(Object.values(ErrorCode).sort());
    for (const status of Object.values(httpStatusOf)) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
  });

  it("calls exactly the outages and the unexpected faults", () => {
    expect(Object.values(ErrorCode).filter(isFaultCode)).toEqual([
      "PROVIDER_UNAVAILABLE",
      "DATABASE_UNAVAILABLE",
      "CHILD_UNAVAILABLE",
      "INTERNAL_SERVER_ERROR",
    ]);
  });
});

describe("isErrorCode", () => {
  it("knows the registry's codes and nothing inherited or foreign", () => {
    expect(isErrorCode("NOT_FOUND")).toBe(true);
    expect(isErrorCode("GRAPHQL_PARSE_FAILED")).toBe(false);
    expect(isErrorCode("toString")).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });
});

describe("REQUEST_ERROR_CODES", () => {
  it("are Apollo Server's request-level codes, none of them the registry's", () => {
    expect(REQUEST_ERROR_CODES).toContain("GRAPHQL_PARSE_FAILED");
    expect(REQUEST_ERROR_CODES.filter((code) => isErrorCode(code))).toEqual([]);
    expect(isRequestErrorCode("BAD_USER_INPUT")).toBe(true);
    expect(isRequestErrorCode("INVALID_INPUT")).toBe(false);
  });
});
