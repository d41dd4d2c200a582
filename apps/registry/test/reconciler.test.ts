import { describe, expect, it } from "vitest";
import {
  databaseKinds,
  eventually,
  BINDING,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  DELETE_BINDING,
  UPDATE_BINDING,
  type BindingView,
} from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

async function bindingStatus(r: TestRegistry, stream: string, cluster: string) {
  const { binding } = await r.query<{ binding: BindingView | null }>(BINDING, { stream, cluster });
  return binding;
}

function waitFor(
  r: TestRegistry,
  stream: string,
  cluster: string,
  accept: (b: BindingView | null) => boolean,
  what: string,
) {
  return eventually(
    async () => {
      const binding = await bindingStatus(r, stream, cluster);
      return accept(binding) ? (binding ?? true) : undefined;
    },
    20_000,
    what,
  );
}

describe.each(databaseKinds)("reconciler on %s", (kind) => {
  const registry = useTestRegistry(kind);

  it("retries transient provider failures with backoff, showing them, until the binding is ONLINE", async () => {
    const r = registry();
    await r.query(DECLARE_CLUSTER, { input: { name: "flaky", provider: "test" } });
    await r.query(CREATE_STREAM, {
      input: { name: `flaky_${kind}`, config: { "test.provider": { failTimes: 3 } } },
    });
    await r.query(CREATE_BINDING, { input: { stream: `flaky_${kind}`, cluster: "flaky" } });
    const retrying = await waitFor(
      r,
      `flaky_${kind}`,
      "flaky",
      (b) => /transient failure/.test(b?.status.message ?? ""),
      "a retry message",
    );
    expect((retrying as BindingView).status).toMatchObject({
      phase: "PENDING",
      message: expect.stringMatching(/^attempt \d failed: transient failure \d of 3; retrying in \d+\.\ds$/),
    });
    const online = (await waitFor(
      r,
      `flaky_${kind}`,
      "flaky",
      (b) => b?.status.phase === "ONLINE",
      "ONLINE",
    )) as BindingView;
    expect(online.status).toMatchObject({ observedGeneration: 1, message: "created after 4 attempt(s)" });
    const retries = r.logs.filter(
      (line) => line.includes('"outcome":"retry"') && line.includes("transient failure"),
    );
    expect(retries).toHaveLength(3);
  });

  it("marks a binding FAILED on a permanent failure, and an update tries again", async () => {
    const r = registry();
    await r.query(DECLARE_CLUSTER, { input: { name: "strict", provider: "test" } });
    await r.query(CREATE_STREAM, { input: { name: `doomed_${kind}` } });
    await r.query(CREATE_BINDING, {
      input: {
        stream: `doomed_${kind}`,
        cluster: "strict",
        config: { "test.provider": { failPermanently: true } },
      },
    });
    const failed = (await waitFor(
      r,
      `doomed_${kind}`,
      "strict",
      (b) => b?.status.phase === "FAILED",
      "FAILED",
    )) as BindingView;
    expect(failed.status).toMatchObject({
      generation: 1,
      observedGeneration: null,
      message: "refused for good (failPermanently)",
    });

    // Removing the override map (a map given as null) lifts failPermanently.
    await r.query(UPDATE_BINDING, {
      input: { stream: `doomed_${kind}`, cluster: "strict", config: { "test.provider": null } },
    });
    const online = (await waitFor(
      r,
      `doomed_${kind}`,
      "strict",
      (b) => b?.status.phase === "ONLINE",
      "ONLINE",
    )) as BindingView;
    expect(online.status).toMatchObject({ generation: 2, observedGeneration: 2 });
  });

  it("keeps retrying a refused delete instead of abandoning it", async () => {
    const r = registry();
    await r.query(DECLARE_CLUSTER, {
      input: { name: "sticky", provider: "test", config: { "test.provider": { deleteFailTimes: 2 } } },
    });
    await r.query(CREATE_STREAM, { input: { name: `sticky_${kind}` } });
    await r.query(CREATE_BINDING, { input: { stream: `sticky_${kind}`, cluster: "sticky" } });
    await waitFor(r, `sticky_${kind}`, "sticky", (b) => b?.status.phase === "ONLINE", "ONLINE");
    await r.query(DELETE_BINDING, { input: { stream: `sticky_${kind}`, cluster: "sticky" } });
    await waitFor(
      r,
      `sticky_${kind}`,
      "sticky",
      (b) => b?.status.phase === "DELETING" && /delete refused/.test(b.status.message ?? ""),
      "a refused delete",
    );
    await waitFor(r, `sticky_${kind}`, "sticky", (b) => b === null, "the binding gone");
  });

  it("re-realizes a cluster's bindings when its config changes", async () => {
    const r = registry();
    await r.query(DECLARE_CLUSTER, { input: { name: "moving", provider: "test" } });
    await r.query(CREATE_STREAM, { input: { name: `moving_${kind}` } });
    await r.query(CREATE_BINDING, { input: { stream: `moving_${kind}`, cluster: "moving" } });
    await waitFor(
      r,
      `moving_${kind}`,
      "moving",
      (b) => b?.status.observedGeneration === 1,
      "generation 1 realized",
    );
    const redeclared = await r.query<{
      declareCluster: { created: boolean; cluster: { generation: number } };
    }>(DECLARE_CLUSTER, {
      input: { name: "moving", provider: "test", config: { "test.provider": { maxPartitions: 9 } } },
    });
    expect(redeclared.declareCluster).toMatchObject({ created: false, cluster: { generation: 2 } });
    await waitFor(
      r,
      `moving_${kind}`,
      "moving",
      (b) => b?.status.phase === "ONLINE" && b.status.observedGeneration === 2,
      "generation 2 realized",
    );
  });

  it("updates, rather than creates again, a binding whose desired state moved while it was being created", async () => {
    const r = registry();
    const stream = `racing_${kind}`;
    await r.query(DECLARE_CLUSTER, { input: { name: "racing", provider: "test" } });
    await r.query(CREATE_STREAM, { input: { name: stream, config: { "test.provider": { delayMs: 1500 } } } });
    const from = r.logs.length;
    await r.query(CREATE_BINDING, { input: { stream, cluster: "racing" } });
    await eventually(
      async () => r.logs.slice(from).find((l) => l.includes('"reconcile started"')),
      10_000,
      "the create to start",
    );
    await r.query(UPDATE_BINDING, {
      input: { stream, cluster: "racing", config: { "acme.kafka": { team: "b" } } },
    });
    const online = (await waitFor(
      r,
      stream,
      "racing",
      (b) => b?.status.observedGeneration === 2,
      "generation 2",
    )) as BindingView;
    expect(online.status).toMatchObject({
      phase: "ONLINE",
      generation: 2,
      message: "updated after 2 attempt(s)",
    });
  });
});
