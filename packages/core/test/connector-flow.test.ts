import { describe, expect, it } from "vitest";
import { sinkFlow, sourceFlow, type ConnectorFlowReading } from "../src/connector-flow.ts";

/** Two partitions ending at `ends`; the sink's group "connect-s" committed at `committed` (none: absent). */
function reading(ends: [number, number], committed?: [number | null, number | null]): ConnectorFlowReading {
  const groups = committed
    ? [
        {
          group: "connect-s",
          lag: ends[0] - (committed[0] ?? 0) + ends[1] - (committed[1] ?? 0),
          partitions: committed.map((c) => ({ committed: c })),
        },
      ]
    : [];
  return {
    partitions: ends.map((end) => ({ end })),
    groups: [{ group: "other", lag: 99, partitions: [] }, ...groups],
  };
}

describe("sinkFlow", () => {
  it("counts the committed offsets of its own group as processed, with its lag", () => {
    expect(sinkFlow("connect-s", reading([10, 6], [4, null]), undefined)).toEqual({
      processed: 4,
      processing: null,
      lag: 12,
    });
  });

  it("is processing when caught up, or when its offsets moved or its lag shrank since the last poll", () => {
    expect(sinkFlow("connect-s", reading([10, 6], [10, 6]), undefined).processing).toBe(true);
    expect(sinkFlow("connect-s", reading([20, 6], [8, 6]), reading([10, 6], [4, 6])).processing).toBe(true);
    expect(sinkFlow("connect-s", reading([10, 6], [8, 6]), reading([10, 6], [8, 6])).processing).toBe(false);
  });

  it("is not processing when its offsets stand still while records wait", () => {
    expect(sinkFlow("connect-s", reading([30, 6], [8, 6]), reading([20, 6], [8, 6]))).toEqual({
      processed: 14,
      processing: false,
      lag: 22,
    });
  });

  it("cannot tell before its group committed anything with records waiting; an empty topic is no backlog", () => {
    expect(sinkFlow("connect-s", reading([3, 0]), reading([3, 0]))).toEqual({
      processed: 0,
      processing: null,
      lag: null,
    });
    expect(sinkFlow("connect-s", reading([0, 0]), undefined)).toEqual({
      processed: 0,
      processing: true,
      lag: null,
    });
  });
});

describe("sourceFlow", () => {
  it("counts every record written to its topic, processing when more arrived since the last poll", () => {
    expect(sourceFlow(reading([10, 6]), undefined)).toEqual({ processed: 16, processing: null, lag: null });
    expect(sourceFlow(reading([12, 6]), reading([10, 6]))).toEqual({
      processed: 18,
      processing: true,
      lag: null,
    });
    expect(sourceFlow(reading([10, 6]), reading([10, 6])).processing).toBe(false);
  });
});
