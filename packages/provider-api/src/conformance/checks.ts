import { expect } from "vitest";
import { DeadlineExceeded, withDeadline } from "@stream-registry/core";
import { isProviderError, type ProviderError } from "../errors.ts";
import type { ClusterProbe } from "../infrastructure.ts";
import type { ResourceObservation } from "../resource-manager.ts";

/** Settles `promise` or fails after `ms`: a provider call that hangs must fail the test, not time it out. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  try {
    return await withDeadline(() => promise, { timeoutMs: ms });
  } catch (error) {
    if (error instanceof DeadlineExceeded) throw new Error(`${what} did not settle within ${ms} ms`);
    throw error;
  }
}

/** The error `promise` rejects with; fails if it resolves, or hangs longer than `ms`. */
export async function rejection(ms: number, what: string, promise: Promise<unknown>): Promise<unknown> {
  const outcome = await within(
    ms,
    what,
    promise.then(
      (value) => ({ resolved: true as const, value }),
      (error: unknown) => ({ resolved: false as const, error }),
    ),
  );
  if (outcome.resolved)
    throw new Error(`${what} resolved (${JSON.stringify(outcome.value)}); expected it to reject`);
  return outcome.error;
}

/**
 * Expects a ProviderError (by its brand: the provider may bundle its own copy of provider-api) with
 * the given retriability; returns it for further checks.
 */
export function expectProviderError(error: unknown, retriable: boolean): ProviderError {
  expect(isProviderError(error), `expected a ProviderError, got ${String(error)}`).toBe(true);
  const providerError = error as ProviderError;
  expect(providerError.retriable, `retriable of "${providerError.message}"`).toBe(retriable);
  expect(providerError.message.length).toBeGreaterThan(0);
  return providerError;
}

/** A value survives JSON round trips unchanged: the registry stores and serves it as JSON. */
export function expectJson(value: unknown, what: string): void {
  expect(JSON.parse(JSON.stringify(value)) as unknown, `${what} must be plain JSON`).toEqual(value);
}

export function expectProbe(probe: ClusterProbe, what: string): void {
  expect(Number.isFinite(probe.latencyMs), `${what}: latencyMs is a finite number`).toBe(true);
  expect(probe.latencyMs).toBeGreaterThanOrEqual(0);
  if (probe.brokerCount !== undefined) {
    expect(Number.isInteger(probe.brokerCount), `${what}: brokerCount is an integer`).toBe(true);
    expect(probe.brokerCount).toBeGreaterThanOrEqual(1);
  }
  expectJson(probe, what);
}

export function expectObservation(observation: ResourceObservation | null | void, what: string): void {
  if (observation === undefined || observation === null) return;
  if (observation.message !== undefined) expect(typeof observation.message).toBe("string");
  if (observation.details !== undefined) {
    expect(typeof observation.details, `${what}: details is an object`).toBe("object");
    expect(Array.isArray(observation.details)).toBe(false);
  }
  expectJson(observation, what);
}
