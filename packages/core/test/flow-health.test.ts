import { describe, expect, it } from "vitest";
import { partitionHealth, producedPerSecond, worstHealth, type LagSample } from "../src/flow-health.ts";
import { FlowHistory, type FlowReading } from "../src/flow-history.ts";

/** Samples 30 s apart from (committed, lag) pairs. */
const samples = (...pairs: [number | null, number][]): LagSample[] =>
  pairs.map(([committed, lag], index) => ({ at: index * 30_000, committed, lag }));

describe("partitionHealth (Burrow's rules over the window)", () => {
  it("is OK with fewer samples than the minimum, whatever they show", () => {
    expect(partitionHealth(samples([5, 10], [5, 20]), false)).toBe("OK");
    expect(partitionHealth(samples([5, 10], [5, 20]), false, 2)).toBe("STOP");
  });

  it("is OK when the lag was zero in any sample of the window (rule 1)", () => {
    expect(partitionHealth(samples([5, 3], [5, 0], [5, 4]), false)).toBe("OK");
    expect(partitionHealth(samples([0, 0], [0, 0], [0, 0]), true)).toBe("OK");
  });

  it("is STOP when nothing moved with lag left and the group has no members (commits stopped)", () => {
    expect(partitionHealth(samples([5, 3], [5, 3], [5, 3]), false)).toBe("STOP");
    // Lag growing as records arrive: still stopped.
    expect(partitionHealth(samples([5, 3], [5, 8], [5, 13]), false)).toBe("STOP");
    // A partition the group never committed on.
    expect(partitionHealth(samples([null, 4], [null, 4], [null, 4]), false)).toBe("STOP");
  });

  it("is STALL when members are there but commit the same offset with lag left", () => {
    expect(partitionHealth(samples([5, 3], [5, 3], [5, 3]), true)).toBe("STALL");
    expect(partitionHealth(samples([5, 3], [5, 6], [5, 9], [5, 12]), true)).toBe("STALL");
  });

  it("is ERR when the offset does not move with lag left and membership is unknown (consumer protocol)", () => {
    expect(partitionHealth(samples([5, 3], [5, 3], [5, 3]), null)).toBe("ERR");
  });

  it("is WARN when the offset moves but the lag never goes down (rule 3)", () => {
    expect(partitionHealth(samples([5, 3], [6, 3], [7, 4], [9, 6]), true)).toBe("WARN");
    expect(partitionHealth(samples([5, 3], [6, 3], [7, 3]), null)).toBe("WARN");
  });

  it("is OK when the offset moves and the lag went down between two samples", () => {
    expect(partitionHealth(samples([5, 10], [8, 12], [15, 6], [20, 7]), true)).toBe("OK");
  });

  it("judges only what came after a rewind (an operator reset the offsets)", () => {
    // Stalled before the reset; after it, one sample only: too early to judge.
    expect(partitionHealth(samples([50, 3], [50, 3], [50, 3], [10, 43]), true)).toBe("OK");
    expect(partitionHealth(samples([50, 3], [50, 3], [10, 43], [10, 43], [10, 43]), true)).toBe("STALL");
    // A partition whose offsets were deleted counts as a rewind too.
    expect(partitionHealth(samples([50, 3], [50, 3], [50, 3], [null, 53]), false)).toBe("OK");
  });
});

describe("worstHealth", () => {
  it("orders OK < WARN < STALL < ERR < STOP and is OK for no partitions", () => {
    expect(worstHealth([])).toBe("OK");
    expect(worstHealth(["OK", "WARN", "OK"])).toBe("WARN");
    expect(worstHealth(["STALL", "WARN"])).toBe("STALL");
    expect(worstHealth(["STALL", "ERR", "WARN"])).toBe("ERR");
    expect(worstHealth(["ERR", "STOP", "OK"])).toBe("STOP");
  });
});

describe("producedPerSecond", () => {
  it("is the end offsets' growth per second between two readings", () => {
    expect(producedPerSecond({ at: 0, end: 100 }, { at: 30_000, end: 400 })).toBe(10);
    expect(producedPerSecond({ at: 0, end: 100 }, { at: 30_000, end: 100 })).toBe(0);
  });

  it("is null without an earlier reading, for no time between them, or when the sum went back", () => {
    expect(producedPerSecond(undefined, { at: 30_000, end: 400 })).toBeNull();
    expect(producedPerSecond({ at: 30_000, end: 100 }, { at: 30_000, end: 400 })).toBeNull();
    expect(producedPerSecond({ at: 0, end: 400 }, { at: 30_000, end: 10 })).toBeNull();
  });
});

const reading = (end: number, committed: number, members: number | null, group = "g"): FlowReading => ({
  partitions: [{ partition: 0, end }],
  groups: [{ group, members, partitions: [{ partition: 0, committed, lag: end - committed }] }],
});

describe("FlowHistory", () => {
  it("keeps a window per stream, group and partition and judges each poll", () => {
    const history = new FlowHistory({ windowSize: 3, minSamples: 3 });
    expect(history.record("b1", 0, reading(10, 5, 1))).toEqual({
      producedPerSecond: null,
      health: new Map([["g", "OK"]]),
    });
    expect(history.record("b1", 10_000, reading(20, 5, 1)).health.get("g")).toBe("OK");
    const third = history.record("b1", 20_000, reading(30, 5, 1));
    expect(third).toEqual({ producedPerSecond: 1, health: new Map([["g", "STALL"]]) });
    // The window slides: three samples of a moving offset with shrinking lag leave the stall behind.
    history.record("b1", 30_000, reading(30, 20, 1));
    history.record("b1", 40_000, reading(30, 25, 1));
    expect(history.record("b1", 50_000, reading(30, 30, 1)).health.get("g")).toBe("OK");
  });

  it("judges each group by its own membership, and streams apart", () => {
    const history = new FlowHistory({ minSamples: 2 });
    for (const at of [0, 1000]) {
      const read: FlowReading = {
        partitions: [{ partition: 0, end: 10 }],
        groups: [
          { group: "gone", members: 0, partitions: [{ partition: 0, committed: 4, lag: 6 }] },
          { group: "kip848", members: null, partitions: [{ partition: 0, committed: 4, lag: 6 }] },
        ],
      };
      const judged = history.record("b1", at, read);
      if (at > 0)
        expect([...judged.health]).toEqual([
          ["gone", "STOP"],
          ["kip848", "ERR"],
        ]);
    }
    expect(history.record("b2", 1000, reading(10, 4, 0, "gone")).health.get("gone")).toBe("OK");
  });

  it("forgets a group that left the reading, and streams not retained", () => {
    const history = new FlowHistory({ minSamples: 2 });
    history.record("b1", 0, reading(10, 4, 0));
    history.record("b1", 1000, { partitions: [{ partition: 0, end: 10 }], groups: [] });
    // Back with one sample only: its old window was forgotten.
    expect(history.record("b1", 2000, reading(10, 4, 0)).health.get("g")).toBe("OK");
    history.record("b2", 0, reading(1, 1, 0));
    history.retain(new Set(["b2"]));
    expect(history.size).toBe(1);
    expect(history.record("b1", 3000, reading(10, 4, 0)).producedPerSecond).toBeNull();
  });

  it("refuses a window too small to compare two samples", () => {
    expect(() => new FlowHistory({ windowSize: 1 })).toThrow(/windowSize must be an integer of at least 2/);
  });
});
