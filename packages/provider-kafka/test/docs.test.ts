import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clientKeys, clusterKeys, streamKeys } from "../src/index.ts";
import { PASSTHROUGH_TOPIC_CONFIGS } from "../src/config/topic-passthrough.ts";

const docs = readFileSync(new URL("../../../docs/kafka.md", import.meta.url), "utf8");
const section = docs.slice(docs.indexOf("## The generic Kafka provider"));

describe("docs/kafka.md", () => {
  it("documents every key the provider accepts", () => {
    expect(section.length).toBeGreaterThan(1000);
    const keys = [...Object.keys(clusterKeys), ...Object.keys(streamKeys), ...Object.keys(clientKeys)];
    expect(keys.filter((key) => !section.includes(`\`${key}\``))).toEqual([]);
    expect(section).toContain("PASSTHROUGH_TOPIC_CONFIGS");
    expect(PASSTHROUGH_TOPIC_CONFIGS.length).toBeGreaterThan(20);
  });
});
