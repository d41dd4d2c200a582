import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ClusterHealthBook } from "../src/connection/cluster-health.ts";
import { CallInterrupted, withDeadline } from "../src/connection/deadline.ts";

describe("withDeadline", () => {
  const what = "probe";

  it("returns the work's result or error when it settles in time", async () => {
    const signal = new AbortController().signal;
    await expect(withDeadline(async () => 42, { signal, timeoutMs: 1000, what })).resolves.toBe(42);
    await expect(
      withDeadline(() => Promise.reject(new Error("boom")), { signal, timeoutMs: 1000, what }),
    ).rejects.toThrow("boom");
  });

  it("fails retriably at the deadline", async () => {
    const started = Date.now();
    const error = await withDeadline(() => sleep(5000), {
      signal: new AbortController().signal,
      timeoutMs: 50,
      what,
    }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(CallInterrupted);
    expect(error).toMatchObject({
      reason: "timeout",
      retriable: true,
      message: "probe did not finish within 50 ms",
    });
  });

  it("fails at once on an aborted signal, and when the signal aborts", async () => {
    let ran = false;
    const aborted = AbortSignal.abort(new Error("shutting down"));
    await expect(
      withDeadline(
        async () => {
          ran = true;
        },
        { signal: aborted, timeoutMs: 1000, what },
      ),
    ).rejects.toMatchObject({ reason: "aborted", message: "probe was aborted: shutting down" });
    expect(ran).toBe(false);

    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("gave up")), 20);
    await expect(
      withDeadline(() => sleep(5000), { signal: controller.signal, timeoutMs: 10_000, what }),
    ).rejects.toMatchObject({ reason: "aborted" });
  });
});

describe("ClusterHealthBook", () => {
  it("spaces reconnects with growing randomized backoff and resets on success", () => {
    let now = 1_000_000;
    const book = new ClusterHealthBook({ baseMs: 100, maxMs: 1000, random: () => 1 }, () => now);
    book.failed("c", "probe failed: refused", "refused");
    expect(book.waitUntil("c")?.getTime()).toBe(now + 100);
    book.failed("c", "probe failed: refused", "refused");
    book.failed("c", "probe failed: refused", "refused");
    expect(book.waitUntil("c")?.getTime()).toBe(now + 400);
    for (let i = 0; i < 5; i += 1) book.failed("c", "probe failed: refused", "refused");
    expect(book.waitUntil("c")?.getTime()).toBe(now + 1000);
    now += 1001;
    expect(book.waitUntil("c")).toBeUndefined();
    expect(book.details("c")).toMatchObject({ consecutiveFailures: 8, lastError: "probe failed: refused" });
    expect(book.get("c").lastConnectionError).toBe("refused");
    book.probed("c", 12, 3);
    expect(book.get("c")).toMatchObject({ consecutiveFailures: 0, latencyMs: 12, brokerCount: 3 });
    expect(book.details("c").lastProbeAt).toBe(new Date(now).toISOString());
  });
});
