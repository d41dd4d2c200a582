import { describe, expect, it } from "vitest";
import { eventually, seed, testPlatform } from "@stream-registry/testkit";
import { findCluster } from "@stream-registry/store";
import { documentsQuery } from "@stream-registry/federation";
import { fieldsApartFromDocument } from "../src/graphql/indexed-objects.ts";
import { registrySchema } from "./support/indexed-schema.ts";
import type { StreamFlow } from "@stream-registry/provider-api";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

// The data-in-flight poller, driven round by round (REGISTRY_FLOW_POLL_MS=0: no timer), over the
// test provider, whose readings the tests set in testPlatform().flows.
const registry = useTestRegistry("pglite", {
  REGISTRY_FLOW_TIMEOUT_MS: "300",
  REGISTRY_FLOW_CONCURRENCY: "1",
});
const FLOW = `query($stream: String!, $cluster: String!) { binding(stream: $stream, cluster: $cluster) {
  flow { observedAt records producedPerSecond error partitions { partition start end }
    groups { group state protocol members lag health partitions { partition committed end lag } } } } }`;

type Flow = {
  observedAt: string;
  records: number;
  producedPerSecond: number | null;
  error: string | null;
  groups: { group: string; protocol: string; lag: number; health: string }[];
} | null;

async function flowOf(r: TestRegistry, stream: string, cluster: string): Promise<Flow> {
  return (await r.query<{ binding: { flow: Flow } }>(FLOW, { stream, cluster })).binding.flow;
}

/** A binding of the test provider, ONLINE. */
async function onlineBinding(r: TestRegistry, cluster: string) {
  const s = seed(r);
  await s.cluster({ name: cluster, provider: "test" }).catch(() => undefined);
  const binding = await s.binding({ cluster });
  await eventually(async () => {
    const { binding: b } = await r.query<{ binding: { status: { phase: string } } }>(
      `query($s: String!, $c: String!) { binding(stream: $s, cluster: $c) { status { phase } } }`,
      { s: binding.stream, c: cluster },
    );
    return b.status.phase === "ONLINE" ? true : undefined;
  });
  return binding.stream;
}

/** A topic with one partition ending at `end` and one group, with no members, committed at `committed`. */
function reading(end: number, committed: number, members: number | null = 0): Omit<StreamFlow, "stream"> {
  const lag = end - committed;
  return {
    partitions: [{ partition: 0, start: 0, end }],
    records: end,
    groups: [
      {
        group: "billing",
        state: members === null ? "Unknown" : "Empty",
        protocol: members === null ? "consumer" : "classic",
        members,
        lag,
        partitions: [{ partition: 0, committed, end, lag }],
      },
    ],
  };
}

const round = (r: TestRegistry) => r.flow.round(new AbortController().signal);

describe("the data-in-flight poller", () => {
  it("answers null before its first poll, then the last reading with its time, rate and health", async () => {
    const r = registry();
    const stream = await onlineBinding(r, "flow_a");
    expect(await flowOf(r, stream, "flow_a")).toBeNull();
    const key = `flow_a/${stream}`;
    testPlatform().flows.set(key, reading(100, 40));
    const before = Date.now();
    expect(await round(r)).toMatchObject({ failed: 0 });
    const first = await flowOf(r, stream, "flow_a");
    expect(first).toMatchObject({
      records: 100,
      producedPerSecond: null,
      error: null,
      groups: [{ group: "billing", protocol: "CLASSIC", lag: 60, health: "OK" }],
    });
    expect(Date.parse(first!.observedAt)).toBeGreaterThanOrEqual(before - 1000);
    // Records keep coming; the group's offset does not move and it has no members: STOP once the
    // window holds three polls.
    testPlatform().flows.set(key, reading(160, 40));
    await round(r);
    const second = await flowOf(r, stream, "flow_a");
    expect(second!.producedPerSecond).toBeGreaterThan(0);
    expect(second!.groups[0]!.health).toBe("OK");
    testPlatform().flows.set(key, reading(220, 40));
    await round(r);
    expect((await flowOf(r, stream, "flow_a"))!.groups[0]).toMatchObject({ lag: 180, health: "STOP" });
    // The same for a group on the consumer protocol (members unknown): ERR; the old group, gone
    // from the readings, is forgotten.
    for (let i = 0; i < 3; i += 1) {
      const flow = reading(220, 50, null);
      testPlatform().flows.set(key, { ...flow, groups: [{ ...flow.groups[0]!, group: "kip848" }] });
      await round(r);
    }
    expect((await flowOf(r, stream, "flow_a"))!.groups[0]).toMatchObject({
      protocol: "CONSUMER",
      health: "ERR",
    });
  });

  it("abandons a hung cluster at its deadline and still reads the others, keeping the last reading", async () => {
    const r = registry();
    const hung = await onlineBinding(r, "flow_0_hung");
    const fine = await onlineBinding(r, "flow_z_fine");
    testPlatform().flows.set(`flow_0_hung/${hung}`, reading(5, 5));
    testPlatform().flows.set(`flow_z_fine/${fine}`, reading(7, 7));
    await round(r);
    const kept = await flowOf(r, hung, "flow_0_hung");
    // One cluster at a time (REGISTRY_FLOW_CONCURRENCY=1), the hung one first by name.
    testPlatform().hung.add("flow_0_hung");
    testPlatform().flows.set(`flow_z_fine/${fine}`, reading(9, 9));
    try {
      expect(await round(r)).toMatchObject({ failed: 1 });
    } finally {
      testPlatform().hung.delete("flow_0_hung");
    }
    expect(await flowOf(r, fine, "flow_z_fine")).toMatchObject({ records: 9, error: null });
    const stale = await flowOf(r, hung, "flow_0_hung");
    expect(stale).toMatchObject({ records: 5, observedAt: kept!.observedAt });
    expect(stale!.error).toBe("did not finish within 300 ms");
  });

  it("tells what a source and a sink of the binding's stream are doing, from its last two readings", async () => {
    const r = registry();
    const stream = await onlineBinding(r, "flow_c");
    const cluster = (await findCluster(r.db.prisma, "flow_c"))!;
    expect(r.flow.connector("sink", cluster, stream, null)).toBeNull();
    const sinkReading = (end: number, committed: number) => {
      const flow = reading(end, committed, 1);
      return { ...flow, groups: [{ ...flow.groups[0]!, group: `connect-${stream}` }] };
    };
    testPlatform().flows.set(`flow_c/${stream}`, sinkReading(10, 4));
    await round(r);
    expect(r.flow.connector("sink", cluster, stream, "task 0 failed")).toMatchObject({
      processed: 4,
      lag: 6,
      processing: null,
      lastError: "task 0 failed",
    });
    expect(r.flow.connector("source", cluster, stream, null)).toMatchObject({
      processed: 10,
      processing: null,
    });
    testPlatform().flows.set(`flow_c/${stream}`, sinkReading(12, 9));
    await round(r);
    expect(r.flow.connector("sink", cluster, stream, null)).toMatchObject({
      processed: 9,
      lag: 3,
      processing: true,
    });
    expect(r.flow.connector("source", cluster, stream, null)).toMatchObject({
      processed: 12,
      processing: true,
    });
    await round(r);
    expect(r.flow.connector("sink", cluster, stream, null)).toMatchObject({
      processing: false,
      lastError: null,
    });
    expect(r.flow.connector("source", cluster, stream, null)).toMatchObject({ processing: false });
  });

  it("shows a sink's and a source's flow in GraphQL, null before the first poll", async () => {
    const r = registry();
    const stream = await onlineBinding(r, "flow_d");
    for (const role of ["Source", "Sink"]) {
      const created = await r.query<Record<string, { userErrors: unknown[] }>>(
        `mutation($input: CreateStream${role}Input!) { createStream${role}(input: $input) { userErrors { message } } }`,
        { input: { name: stream, cluster: "flow_d", type: "file", config: { file: { path: "/tmp/x" } } } },
      );
      expect(Object.values(created)[0]!.userErrors).toEqual([]);
    }
    const CONNECTORS = `query($name: String!) {
      sink(name: $name) { flow { observedAt processed processing lag lastError } }
      source(name: $name) { flow { processed processing lag lastError } } }`;
    type Answer = Record<"sink" | "source", { flow: Record<string, unknown> | null }>;
    expect(await r.query<Answer>(CONNECTORS, { name: stream })).toEqual({
      sink: { flow: null },
      source: { flow: null },
    });
    const sinkReading = (end: number, committed: number) => {
      const flow = reading(end, committed, 1);
      return { ...flow, groups: [{ ...flow.groups[0]!, group: `connect-${stream}` }] };
    };
    testPlatform().flows.set(`flow_d/${stream}`, sinkReading(10, 4));
    await round(r);
    testPlatform().flows.set(`flow_d/${stream}`, sinkReading(10, 10));
    await round(r);
    const answer = await r.query<Answer>(CONNECTORS, { name: stream });
    expect(answer.sink.flow).toMatchObject({ processed: 10, processing: true, lag: 0, lastError: null });
    expect(answer.source.flow).toEqual({ processed: 10, processing: false, lag: null, lastError: null });
  });

  it("ends a round in progress when its signal aborts (the registry stopping)", async () => {
    const r = registry();
    await onlineBinding(r, "flow_1_stop");
    testPlatform().hung.add("flow_1_stop");
    try {
      const stopping = new AbortController();
      const inProgress = r.flow.round(stopping.signal);
      stopping.abort(new Error("registry is shutting down"));
      await expect(inProgress).resolves.toMatchObject({ failed: 0 });
    } finally {
      testPlatform().hung.delete("flow_1_stop");
    }
  });
});

describe("data in flight at a parent", () => {
  it("is left out of a binding's indexed document: the parent asks the owner for it, live", () => {
    expect(fieldsApartFromDocument("Binding").has("flow")).toBe(true);
    const documents = documentsQuery(registrySchema());
    expect(documents).toContain("... on Binding");
    expect(documents).not.toContain("producedPerSecond");
  });
});
