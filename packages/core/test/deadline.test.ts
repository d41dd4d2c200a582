import { describe, expect, it } from "vitest";
import { DeadlineExceeded, withDeadline } from "../src/deadline.ts";

const never = () => new Promise<never>(() => {});

describe("withDeadline", () => {
  it("passes the call's value through", async () => {
    await expect(withDeadline(async () => 42, { timeoutMs: 1000 })).resolves.toBe(42);
  });

  it("passes the call's own failure through", async () => {
    await expect(
      withDeadline(async () => Promise.reject(new Error("refused")), { timeoutMs: 1000 }),
    ).rejects.toThrow("refused");
    const throwsAtOnce = (): Promise<never> => {
      throw new Error("sync");
    };
    await expect(withDeadline(throwsAtOnce, { timeoutMs: 1000 })).rejects.toThrow("sync");
  });

  it("rejects with DeadlineExceeded at the deadline even if the call ignores its signal", async () => {
    const started = performance.now();
    let seen: AbortSignal | undefined;
    const error = await withDeadline(
      (signal) => {
        seen = signal;
        return never();
      },
      { timeoutMs: 50 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceeded);
    expect(error).toMatchObject({ timeoutMs: 50, message: "did not finish within 50 ms" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(seen?.aborted).toBe(true);
  });

  it("rejects with the caller's reason when the caller aborts first", async () => {
    const caller = new AbortController();
    const pending = withDeadline(never, { timeoutMs: 10_000, signal: caller.signal });
    caller.abort(new Error("shutting down"));
    await expect(pending).rejects.toThrow("shutting down");
  });

  it("does not call at all when the caller has already aborted", async () => {
    let called = false;
    const caller = AbortSignal.abort(new Error("gone"));
    const call = async () => {
      called = true;
    };
    await expect(withDeadline(call, { timeoutMs: 1000, signal: caller })).rejects.toThrow("gone");
    expect(called).toBe(false);
  });

  it("has no deadline of its own when the timeout is not finite", async () => {
    const caller = new AbortController();
    const pending = withDeadline(
      (signal) => new Promise((resolve) => setTimeout(() => resolve(signal.aborted), 30)),
      { timeoutMs: Infinity, signal: caller.signal },
    );
    await expect(pending).resolves.toBe(false);
  });
});
