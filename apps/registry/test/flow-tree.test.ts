import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AsyncDisposableStack,
  eventually,
  seed,
  startRegistryTree,
  type RegistryNode,
} from "@stream-registry/testkit";

// Data in flight at a parent: a binding listed from the parent's discovery index shows `flow` as
// the registry that owns it last polled it, asked of that registry live (flow is unindexed).
const stack = new AsyncDisposableStack();
let tree: Map<string, RegistryNode>;
beforeAll(async () => {
  tree = await startRegistryTree(["/", "/aws"], {
    env: { REGISTRY_FLOW_POLL_MS: "300", RECONCILER_RESYNC_MS: "500", REGISTRY_HEALTH_INTERVAL_MS: "500" },
    stack,
  });
}, 300_000);
afterAll(() => stack.disposeAsync());

const LISTED = `{ bindings(first: 50, consistency: INDEX) {
  nodes { fqn status { phase } flow { observedAt records producedPerSecond groups { group } error } } } }`;
type Listed = {
  bindings: {
    nodes: {
      fqn: string;
      status: { phase: string };
      flow: { observedAt: string; records: number; producedPerSecond: number | null } | null;
    }[];
  };
};

describe("data in flight at a parent", () => {
  it("lists a child's binding from the index with the flow its owner last polled, and its time", async () => {
    const child = tree.get("/aws")!;
    const root = tree.get("/")!;
    const cluster = await seed(child).cluster({ provider: "test" });
    const binding = await seed(child).binding({ cluster });
    const fqn = `/aws/${cluster.name}/${binding.stream}`;
    const started = Date.now();
    const listed = await eventually(
      async () => {
        const node = (await root.query<Listed>(LISTED)).bindings.nodes.find((n) => n.fqn === fqn);
        // A rate needs two readings: the first one's is null.
        return node?.status.phase === "ONLINE" && node.flow && node.flow.producedPerSecond !== null
          ? node
          : undefined;
      },
      60_000,
      "the child's binding listed at the root with its flow",
    );
    // The test provider's empty topic, as the child's poller read it (every 300 ms here).
    expect(listed.flow).toMatchObject({
      records: 0,
      producedPerSecond: 0,
      groups: [],
      error: null,
    });
    expect(Date.parse(listed.flow!.observedAt)).toBeGreaterThanOrEqual(started - 1000);
    // The child's own answer is the same reading (or a later one).
    const own = await child.query<{ binding: { flow: { observedAt: string } } }>(
      `query($s: String!, $c: String!) { binding(stream: $s, cluster: $c) { flow { observedAt } } }`,
      { s: binding.stream, c: cluster.name },
    );
    expect(Date.parse(own.binding.flow.observedAt)).toBeGreaterThanOrEqual(
      Date.parse(listed.flow!.observedAt),
    );
  }, 120_000);
});
