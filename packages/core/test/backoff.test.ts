import { describe, expect, it } from "vitest";
import { retryDelayMs } from "../src/backoff.ts";

const low = () => 0;
const high = () => 1;
const middle = () => 0.5;

describe("retryDelayMs", () => {
  // With defaults (base 500 ms, max 60 s) the cap doubles per attempt: 500, 1000, 2000, ... 60000.
  it.each([
    [1, 250, 375, 500],
    [2, 500, 750, 1000],
    [3, 1000, 1500, 2000],
    [4, 2000, 3000, 4000],
    [7, 16_000, 24_000, 32_000],
    [8, 30_000, 45_000, 60_000],
    [9, 30_000, 45_000, 60_000],
    [50, 30_000, 45_000, 60_000],
  ])("attempt %i is between %i and %i ms with %i as its cap", (attempt, min, mid, cap) => {
    expect(retryDelayMs(attempt, { random: low })).toBe(min);
    expect(retryDelayMs(attempt, { random: middle })).toBe(mid);
    expect(retryDelayMs(attempt, { random: high })).toBe(cap);
  });

  it("honours baseMs and maxMs", () => {
    expect(retryDelayMs(1, { baseMs: 100, random: high })).toBe(100);
    expect(retryDelayMs(3, { baseMs: 100, random: high })).toBe(400);
    expect(retryDelayMs(3, { baseMs: 100, maxMs: 300, random: high })).toBe(300);
    expect(retryDelayMs(3, { baseMs: 100, maxMs: 300, random: low })).toBe(150);
  });

  it("rounds to whole milliseconds", () => {
    expect(retryDelayMs(1, { baseMs: 3, random: low })).toBe(2);
    expect(retryDelayMs(1, { baseMs: 10, random: () => 0.123 })).toBe(6);
  });

  it("stays at the cap for attempts so large that 2^n overflows", () => {
    expect(retryDelayMs(5000, { random: high })).toBe(60_000);
    expect(retryDelayMs(Number.MAX_SAFE_INTEGER, { random: low })).toBe(30_000);
  });

  it("uses Math.random by default and stays within the equal-jitter bounds", () => {
    const delays = Array.from({ length: 200 }, () => retryDelayMs(3));
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(2000);
      expect(Number.isInteger(delay)).toBe(true);
    }
    expect(new Set(delays).size).toBeGreaterThan(1);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects attempt %s", (attempt) => {
    expect(() => retryDelayMs(attempt)).toThrow(RangeError);
  });
});
