import { describe, expect, it } from "vitest";
import {
  configRejected,
  InfrastructureError,
  isInfrastructureError,
  isPermanentProviderError,
  isProviderError,
  isResourceConflictError,
  isTransientProviderError,
  PROVIDER_ERROR_BRAND,
  ProviderError,
  ResourceConflictError,
  SchemaManagerError,
} from "../src/index.ts";

/** An error from another copy of provider-api: another class, the same global brand. */
class ForeignProviderError extends Error {
  readonly [PROVIDER_ERROR_BRAND]: string;
  constructor(
    kind: string,
    readonly retriable: boolean,
  ) {
    super("from another copy");
    this[PROVIDER_ERROR_BRAND] = kind;
  }
}

describe("provider error brand", () => {
  it("is the global symbol any copy of provider-api gets", () => {
    expect(PROVIDER_ERROR_BRAND).toBe(Symbol.for("stream-registry.provider-error"));
  });

  it("names each class's kind, subclasses a provider defines taking their base's", () => {
    class CallInterrupted extends InfrastructureError {}
    expect(new ProviderError("x", { retriable: true })[PROVIDER_ERROR_BRAND]).toBe("provider");
    expect(configRejected("x")[PROVIDER_ERROR_BRAND]).toBe("infrastructure");
    expect(new CallInterrupted("x", { retriable: true })[PROVIDER_ERROR_BRAND]).toBe("infrastructure");
    expect(new ResourceConflictError("x")[PROVIDER_ERROR_BRAND]).toBe("resource-conflict");
    expect(new SchemaManagerError("x", { retriable: false })[PROVIDER_ERROR_BRAND]).toBe("schema");
  });

  it("tells permanent from transient errors, of this copy or another", () => {
    const foreignPermanent = new ForeignProviderError("infrastructure", false);
    expect(foreignPermanent).not.toBeInstanceOf(ProviderError);
    expect(isPermanentProviderError(foreignPermanent)).toBe(true);
    expect(isTransientProviderError(foreignPermanent)).toBe(false);
    expect(isTransientProviderError(new ForeignProviderError("provider", true))).toBe(true);
    expect(isPermanentProviderError(configRejected("no"))).toBe(true);
    expect(isTransientProviderError(new InfrastructureError("down", { retriable: true }))).toBe(true);
  });

  it("recognises infrastructure errors and resource conflicts by kind", () => {
    expect(isResourceConflictError(new ForeignProviderError("resource-conflict", false))).toBe(true);
    expect(isResourceConflictError(configRejected("no"))).toBe(false);
    expect(isInfrastructureError(new ForeignProviderError("resource-conflict", false))).toBe(true);
    expect(isInfrastructureError(new SchemaManagerError("x", { retriable: false }))).toBe(false);
  });

  it("refuses plain errors, unknown kinds and look-alikes without a boolean retriable", () => {
    expect(isProviderError(new Error("boom"))).toBe(false);
    expect(isProviderError(null)).toBe(false);
    expect(isProviderError("infrastructure")).toBe(false);
    expect(isProviderError(new ForeignProviderError("something-else", false))).toBe(false);
    expect(isProviderError({ [PROVIDER_ERROR_BRAND]: "provider", retriable: "no" })).toBe(false);
    expect(isPermanentProviderError({ retriable: false })).toBe(false);
  });
});
