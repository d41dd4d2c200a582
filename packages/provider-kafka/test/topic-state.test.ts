import { describe, expect, it } from "vitest";
import { planTopicUpdate, topicDifferences, type ActualTopic } from "../src/topic/topic-state.ts";

const actual = (overrides: Partial<ActualTopic> = {}): ActualTopic => ({
  name: "widgets_v0",
  partitions: 3,
  replicationFactor: 1,
  configs: { "cleanup.policy": "delete", "retention.ms": "604800000", "compression.type": "producer" },
  overrides: {},
  ...overrides,
});

describe("topicDifferences", () => {
  it("lists every declared setting the existing topic lacks", () => {
    expect(
      topicDifferences(
        {
          partitions: 10,
          replicationFactor: 3,
          configs: { "cleanup.policy": "compact", "segment.ms": "1000" },
        },
        actual(),
      ),
    ).toEqual([
      "partitions 3 (wanted 10)",
      "replication factor 1 (wanted 3)",
      "cleanup.policy delete (wanted compact)",
      "segment.ms unset (wanted 1000)",
    ]);
  });

  it("finds none when the declared settings match, defaults included, and list order does not matter", () => {
    const topic = actual({ configs: { "cleanup.policy": "delete,compact", "retention.ms": "604800000" } });
    expect(
      topicDifferences(
        { partitions: 3, configs: { "cleanup.policy": "compact,delete", "retention.ms": "604800000" } },
        topic,
      ),
    ).toEqual([]);
    // Settings the stream leaves out are the broker's business.
    expect(topicDifferences({ configs: {} }, actual({ partitions: 12, replicationFactor: 3 }))).toEqual([]);
  });
});

describe("planTopicUpdate", () => {
  it("lays desired configs over the current overrides, keeping the others", () => {
    const plan = planTopicUpdate(
      { configs: { "retention.ms": "1000", "cleanup.policy": "delete" } },
      actual({ overrides: { "segment.ms": "60000", "cleanup.policy": "delete" } }),
    );
    expect(plan).toEqual({
      overrides: { "segment.ms": "60000", "cleanup.policy": "delete", "retention.ms": "1000" },
      changedConfigs: ["retention.ms=1000"],
      refusals: [],
    });
  });

  it("writes nothing when every desired config is already overridden to its value", () => {
    const plan = planTopicUpdate(
      { partitions: 3, configs: { "retention.ms": "1000" } },
      actual({ overrides: { "retention.ms": "1000" } }),
    );
    expect(plan).toEqual({ changedConfigs: [], refusals: [] });
  });

  it("pins a desired value that equals today's default", () => {
    const plan = planTopicUpdate({ configs: { "cleanup.policy": "delete" } }, actual());
    expect(plan.overrides).toEqual({ "cleanup.policy": "delete" });
  });

  it("grows partitions and refuses a decrease or a replication change", () => {
    expect(planTopicUpdate({ partitions: 6, configs: {} }, actual()).partitions).toBe(6);
    const refused = planTopicUpdate({ partitions: 2, replicationFactor: 2, configs: {} }, actual());
    expect(refused.partitions).toBeUndefined();
    expect(refused.refusals).toEqual([
      expect.stringContaining("partitions cannot decrease from 3 to 2"),
      expect.stringContaining("replication factor cannot change from 1 to 2"),
    ]);
  });
});
