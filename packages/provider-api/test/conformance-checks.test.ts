import { describe, expect, it } from "vitest";
import { configRejected, InfrastructureError } from "../src/index.ts";
import {
  expectObservation,
  expectProbe,
  expectProviderError,
  rejection,
  within,
} from "../src/conformance/checks.ts";

// The suite's own checks must fail when a provider misbehaves; these are the ways they can.
describe("conformance checks", () => {
  it("fail a provider call that hangs instead of waiting for it", async () => {
    await expect(within(50, "probeCluster", new Promise(() => {}))).rejects.toThrow(
      "probeCluster did not settle within 50 ms",
    );
  });

  it("fail a call that resolves where it must reject", async () => {
    await expect(rejection(1_000, "probe(unreachable)", Promise.resolve({ latencyMs: 1 }))).rejects.toThrow(
      'probe(unreachable) resolved ({"latencyMs":1}); expected it to reject',
    );
    expect(await rejection(1_000, "x", Promise.reject(new Error("down")))).toEqual(new Error("down"));
  });

  it("tell retriable from permanent provider errors, and refuse plain exceptions", () => {
    expect(() => expectProviderError(new Error("boom"), true)).toThrow(/expected a ProviderError/);
    expect(() => expectProviderError(configRejected("no"), true)).toThrow(/retriable/);
    expect(expectProviderError(new InfrastructureError("down", { retriable: true }), true).message).toBe(
      "down",
    );
  });

  it("refuse probes and observations that are not plain JSON or out of range", () => {
    expect(() => expectProbe({ latencyMs: -1 }, "p")).toThrow();
    expect(() => expectProbe({ latencyMs: 1, brokerCount: 0 }, "p")).toThrow();
    expect(() => expectProbe({ latencyMs: Number.NaN }, "p")).toThrow(/finite/);
    expect(() => expectObservation({ details: { at: new Date() as never } }, "o")).toThrow(/plain JSON/);
    expect(() => expectObservation({ details: { n: 1, s: "x", list: [true, null] } }, "o")).not.toThrow();
  });
});
