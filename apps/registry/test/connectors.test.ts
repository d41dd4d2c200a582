import { describe, expect, it } from "vitest";
import {
  connectorKey,
  DELETE_BINDING,
  DELETE_STREAM,
  eventually,
  seed,
  testConnectorPlatform,
  type UserErrorView,
} from "@stream-registry/testkit";
import { findConnector, writeAutoRestarts } from "@stream-registry/store";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

// Stream sources and sinks through GraphQL (issue 22, Musts 3, 4 and 6 on the registry's side),
// on the test provider's in-memory connectors (testkit's test-connectors.ts): validation before
// anything is stored, the kernel realizing them and their run state, restarts (asked and
// automatic), a connector deleted behind the registry's back, and secrets never shown.

const FIELDS = `namespace name type config desiredState state cluster { name } binding { fqn }
  status { phase generation observedGeneration message }
  observed { state tasks { id state workerId error } error autoRestarts lastRestartAt }`;
const CREATE = `mutation($input: CreateStreamSourceInput!) {
  createStreamSource(input: $input) { source { ${FIELDS} } userErrors { code field message } } }`;
const CREATE_SINK = `mutation($input: CreateStreamSinkInput!) {
  createStreamSink(input: $input) { sink { ${FIELDS} } userErrors { code field message } } }`;
const SOURCE = `query($name: String!) { source(name: $name) { ${FIELDS} } }`;
const SINK = `query($name: String!) { sink(name: $name) { ${FIELDS} } }`;
const act = (mutation: string, input: string) => `mutation($input: ${input}!) {
  ${mutation}(input: $input) { source { ${FIELDS} } userErrors { code field message } } }`;

interface Connector {
  name: string;
  type: string;
  config: Record<string, Record<string, unknown>>;
  desiredState: string;
  state: string;
  cluster: { name: string };
  binding: { fqn: string } | null;
  status: { phase: string; generation: number; observedGeneration: number | null };
  observed: {
    state: string;
    error: string | null;
    autoRestarts: number;
    lastRestartAt: string | null;
  } | null;
}
type Payload = { source?: Connector | null; sink?: Connector | null; userErrors: UserErrorView[] };

const platform = testConnectorPlatform();
let n = 0;
const fresh = (what: string) => `${what}_${process.pid}_${++n}`;

/** A cluster of the test provider with a bound stream of `name`. */
async function bound(r: TestRegistry, name: string, cluster?: string) {
  const made = cluster ?? (await seed(r).cluster({ provider: "test" })).name;
  await seed(r).binding({ stream: (await seed(r).stream({ name })).name, cluster: made });
  return made;
}

async function mutate(r: TestRegistry, document: string, input: Record<string, unknown>): Promise<Payload> {
  const data = await r.query<Record<string, Payload>>(document, { input });
  return Object.values(data)[0]!;
}

async function changeCount(r: TestRegistry): Promise<number> {
  const { changes } = await r.query<{ changes: { totalCount: number } }>(
    `{ changes(first: 1) { totalCount } }`,
  );
  return changes.totalCount;
}

const online = (r: TestRegistry, name: string, state = "ONLINE", query = SOURCE) =>
  eventually(
    async () => {
      const found = Object.values(await r.query<Record<string, Connector | null>>(query, { name }))[0];
      return found?.state === state ? found : undefined;
    },
    15_000,
    `${name} ${state}`,
  );

describe("stream sources and sinks", { timeout: 60_000 }, () => {
  const registry = useTestRegistry("pglite", {
    RECONCILER_RESYNC_MS: "300",
    REGISTRY_CONNECTOR_RESTART_DELAYS_MS: "0,1500",
    REGISTRY_CONNECTOR_RESTART_MAX: "2",
  });

  it("lists a cluster's types, and none with the reason where it has no Connect worker", async () => {
    const r = registry();
    const cluster = (await seed(r).cluster({ provider: "test" })).name;
    const types = `query($cluster: String!) { sourceTypes(cluster: $cluster) { types { name class } reason }
      sinkTypes(cluster: $cluster) { types { name } reason } }`;
    const offered = await r.query<{ sourceTypes: { types: { name: string }[]; reason: string | null } }>(
      types,
      {
        cluster,
      },
    );
    expect(offered.sourceTypes.types.map((t) => t.name)).toEqual(["file", "postgres"]);
    platform.noWorker.add(cluster);
    const none = await r.query<{ sinkTypes: { types: unknown[]; reason: string } }>(types, { cluster });
    expect(none.sinkTypes).toEqual({ types: [], reason: expect.stringContaining("no Connect worker") });
  });

  it("resolves _entities of sources and sinks by role and name, in order, null for unknown names and other namespaces", async () => {
    const r = registry();
    const [a, b] = [fresh("ent_a"), fresh("ent_b")];
    const cluster = await bound(r, a);
    await bound(r, b, cluster);
    const file = { file: { path: "/tmp/entities" } };
    for (const [document, name] of [
      [CREATE, a],
      [CREATE, b],
      [CREATE_SINK, a],
    ] as const) {
      expect((await mutate(r, document, { name, cluster, type: "file", config: file })).userErrors).toEqual(
        [],
      );
    }
    const { _entities } = await r.query<{ _entities: unknown[] }>(
      `query($representations: [_Any!]!) { _entities(representations: $representations) {
        ... on StreamSource { __typename name cluster { name } }
        ... on StreamSink { __typename name cluster { name } } } }`,
      {
        representations: [
          { __typename: "StreamSource", namespace: "/", name: b },
          { __typename: "StreamSink", namespace: "/", name: a },
          { __typename: "StreamSource", namespace: "/", name: a },
          { __typename: "StreamSink", namespace: "/", name: b },
          { __typename: "StreamSource", namespace: "/other", name: a },
        ],
      },
    );
    expect(_entities).toEqual([
      { __typename: "StreamSource", name: b, cluster: { name: cluster } },
      { __typename: "StreamSink", name: a, cluster: { name: cluster } },
      { __typename: "StreamSource", name: a, cluster: { name: cluster } },
      null,
      null,
    ]);
  });

  it("creates a source, realizes it ONLINE, and never shows or logs its secret", async () => {
    const r = registry();
    const name = fresh("orders");
    const cluster = await bound(r, name);
    const config = {
      "postgres-source": { "database.hostname": "db", "database.password": "hunter2-secret" },
    };
    const made = await mutate(r, CREATE, { name, cluster, type: "postgres", config });
    expect(made.userErrors).toEqual([]);
    expect(made.source).toMatchObject({ name, type: "postgres", desiredState: "RUNNING", state: "PENDING" });
    const source = await online(r, name);
    expect(source).toMatchObject({
      cluster: { name: cluster },
      binding: { fqn: `/${cluster}/${name}` },
      status: { phase: "ONLINE", generation: 1, observedGeneration: 1 },
      observed: { state: "RUNNING", autoRestarts: 0 },
    });
    // The platform has the secret; no answer and no change-log entry does.
    const onPlatform = platform.connectors.get(connectorKey("source", cluster, name))!;
    expect(onPlatform.configMaps["postgres-source"]!["database.password"]).toBe("hunter2-secret");
    expect(JSON.stringify(source)).not.toContain("hunter2");
    const { changes } = await r.query<{ changes: { nodes: unknown[] } }>(
      `{ changes(first: 500) { nodes { entityType entityKey data } } }`,
    );
    expect(JSON.stringify(changes)).not.toContain("hunter2");
    expect(r.logs.join("\n")).not.toContain("hunter2");
    expect(changes.nodes).toContainEqual(expect.objectContaining({ entityType: "source", entityKey: name }));
    // Writing back what was read keeps the secret.
    const updated = await mutate(r, act("updateStreamSource", "UpdateStreamSourceInput"), {
      name,
      config: {
        ...source.config,
        "postgres-source": { ...source.config["postgres-source"], "database.hostname": "db2" },
      },
    });
    expect(updated.userErrors).toEqual([]);
    await eventually(async () => {
      const now = platform.connectors.get(connectorKey("source", cluster, name))!;
      return now.configMaps["postgres-source"]!["database.hostname"] === "db2" ? now : undefined;
    });
    const after = platform.connectors.get(connectorKey("source", cluster, name))!;
    expect(after.configMaps["postgres-source"]!["database.password"]).toBe("hunter2-secret");
  });

  it("pauses, resumes and stops as desired state, and restarts when asked", async () => {
    const r = registry();
    const name = fresh("clicks");
    const cluster = await bound(r, name);
    const made = await mutate(r, CREATE_SINK, {
      name,
      cluster,
      type: "file",
      config: { file: { path: "/tmp/x" } },
    });
    expect(made.userErrors).toEqual([]);
    await online(r, name, "ONLINE", SINK);
    const sinkAct = (mutation: string, input: string) => act(mutation, input).replace("source {", "sink {");
    expect((await mutate(r, sinkAct("pauseStreamSink", "StreamSinkRefInput"), { name })).sink).toMatchObject({
      desiredState: "PAUSED",
    });
    await online(r, name, "PAUSED", SINK);
    expect(platform.connectors.get(connectorKey("sink", cluster, name))!.state).toBe("PAUSED");
    await mutate(r, sinkAct("stopStreamSink", "StreamSinkRefInput"), { name });
    await online(r, name, "STOPPED", SINK);
    await mutate(r, sinkAct("resumeStreamSink", "StreamSinkRefInput"), { name });
    await online(r, name, "ONLINE", SINK);
    const restarted = await mutate(r, sinkAct("restartStreamSink", "RestartStreamSinkInput"), { name });
    expect(restarted.userErrors).toEqual([]);
    expect(platform.restarts.get(connectorKey("sink", cluster, name))).toBe(1);
  });

  it("restarts a failed connector automatically with growing delays, up to the maximum, and counts it", async () => {
    const r = registry();
    const name = fresh("failing");
    const cluster = await bound(r, name);
    await mutate(r, CREATE, { name, cluster, type: "file", config: { file: { path: "/tmp/y" } } });
    await online(r, name);
    const key = connectorKey("source", cluster, name);
    const failedAt = Date.now();
    platform.connectors.get(key)!.failed = "task";
    // The resync sees it DEGRADED and restarts it at once (delay 0), counted. It fails again at once
    // (read from the platform, not through GraphQL): seen healthy for longer than the next delay,
    // its count would start over, which a slow machine could otherwise let happen here.
    await eventually(async () => ((platform.restarts.get(key) ?? 0) === 1 ? true : undefined));
    platform.connectors.get(key)!.failed = "connector";
    // The second restart waits its delay (1,500 ms after the first); then the maximum (2) is reached.
    await eventually(async () => ((platform.restarts.get(key) ?? 0) === 2 ? true : undefined));
    platform.connectors.get(key)!.failed = "connector";
    const failed = await online(r, name, "FAILED");
    expect(failed.observed).toMatchObject({
      state: "FAILED",
      autoRestarts: 2,
      error: expect.stringContaining("failed"),
    });
    expect(platform.restarts.get(key)).toBe(2);
    // The first restart came after the failure, the second at least its delay after the first.
    expect(Date.parse(failed.observed!.lastRestartAt!) - failedAt).toBeGreaterThanOrEqual(1500);
    // A count is written only over the one read: a user's change (another generation) or another
    // observer's restart (another count) in between means no restart from this observer.
    const row = (await findConnector(r.db.prisma, "source", name))!;
    const stale = [
      { autoRestarts: row.autoRestarts, generation: row.generation - 1 },
      { autoRestarts: row.autoRestarts - 1, generation: row.generation },
    ];
    for (const seen of stale) {
      expect(await writeAutoRestarts(r.db.prisma, "source", row.id, seen, 3, new Date())).toBe(false);
    }
    expect(await writeAutoRestarts(r.db.prisma, "source", row.id, row, 0, null)).toBe(true);
  });

  it("stays PENDING, showing why, while the worker is down or rebalancing, then is ONLINE", async () => {
    const r = registry();
    const name = fresh("busy");
    const cluster = await bound(r, name);
    const config = { file: { path: "/tmp/b" }, "test.connector": { failTimes: 3 } };
    await mutate(r, CREATE, { name, cluster, type: "file", config });
    const retrying = await eventually(async () => {
      const { source } = await r.query<{ source: Connector & { status: { message: string | null } } }>(
        SOURCE,
        {
          name,
        },
      );
      return source.status.message?.includes("409") ? source : undefined;
    });
    expect(retrying.state).toBe("PENDING");
    await online(r, name);
  });

  it("recreates a connector deleted behind its back, and deletes it for good when asked", async () => {
    const r = registry();
    const name = fresh("vanishing");
    const cluster = await bound(r, name);
    await mutate(r, CREATE, { name, cluster, type: "file", config: { file: { path: "/tmp/z" } } });
    await online(r, name);
    const key = connectorKey("source", cluster, name);
    platform.connectors.delete(key);
    await eventually(async () => platform.connectors.get(key));
    await online(r, name);
    // Its binding cannot go while it is there, nor its stream with a cascade.
    const unbind = await mutate(r, DELETE_BINDING, { stream: name, cluster });
    expect(unbind.userErrors).toEqual([
      expect.objectContaining({
        code: "IN_USE",
        field: ["input", "cluster"],
        message: expect.stringContaining("stream source"),
      }),
    ]);
    const cascade = await mutate(r, DELETE_STREAM, { name, cascade: true });
    expect(cascade.userErrors).toEqual([
      expect.objectContaining({ code: "IN_USE", field: ["input", "name"] }),
    ]);
    const deleted = await mutate(r, act("deleteStreamSource", "DeleteStreamSourceInput"), { name });
    expect(deleted.source!.state).toBe("DELETING");
    await eventually(async () => {
      const { source } = await r.query<{ source: Connector | null }>(SOURCE, { name });
      return source === null && !platform.connectors.has(key) ? true : undefined;
    });
    expect((await mutate(r, DELETE_BINDING, { stream: name, cluster })).userErrors).toEqual([]);
  });

  describe("refuses bad input, naming the field, storing and creating nothing", () => {
    const refused = async (input: Record<string, unknown>, document = CREATE) => {
      const r = registry();
      const before = await changeCount(r);
      const connectors = platform.connectors.size;
      const payload = await mutate(r, document, input);
      expect(payload.source ?? payload.sink ?? null).toBeNull();
      expect(await changeCount(r)).toBe(before);
      expect(platform.connectors.size).toBe(connectors);
      return payload.userErrors;
    };
    const file = { file: { path: "/tmp/f" } };

    it("an unknown type", async () => {
      const name = fresh("t");
      const cluster = await bound(registry(), name);
      expect(await refused({ name, cluster, type: "mongodb", config: file })).toEqual([
        expect.objectContaining({
          code: "INVALID_INPUT",
          field: ["input", "type"],
          message: expect.stringMatching(/unknown stream source type "mongodb".*file, postgres/),
        }),
      ]);
    });

    it("a config the platform's validation rejects", async () => {
      const name = fresh("v");
      const cluster = await bound(registry(), name);
      const errors = await refused({
        name,
        cluster,
        type: "file",
        config: { "test.connector": { invalid: "topic" } },
      });
      expect(errors).toEqual([
        expect.objectContaining({
          code: "PROVIDER_REJECTED",
          field: ["input", "config", "test.connector", "topic"],
        }),
      ]);
    });

    it("a stream not bound on the cluster", async () => {
      const r = registry();
      const cluster = (await seed(r).cluster({ provider: "test" })).name;
      const name = (await seed(r).stream({ name: fresh("u") })).name;
      expect(await refused({ name, cluster, type: "file", config: file })).toEqual([
        expect.objectContaining({
          code: "NOT_FOUND",
          field: ["input", "name"],
          message: expect.stringContaining("is not bound"),
        }),
      ]);
    });

    it("a cluster without a Connect worker, with its reason", async () => {
      const name = fresh("w");
      const cluster = await bound(registry(), name);
      platform.noWorker.add(cluster);
      expect(await refused({ name, cluster, type: "file", config: file }, CREATE_SINK)).toEqual([
        expect.objectContaining({
          code: "UNSUPPORTED",
          field: ["input", "cluster"],
          message: expect.stringContaining("no Connect worker"),
        }),
      ]);
    });

    it("a cluster whose provider has no sources, and one that does not exist", async () => {
      const r = registry();
      const name = fresh("m");
      const cluster = (await seed(r).cluster({ provider: "registry-only" })).name;
      await seed(r).binding({ stream: (await seed(r).stream({ name })).name, cluster });
      expect(await refused({ name, cluster, type: "file", config: file })).toEqual([
        expect.objectContaining({ code: "UNSUPPORTED", field: ["input", "cluster"] }),
      ]);
      expect(await refused({ name, cluster: "nowhere", type: "file", config: file })).toEqual([
        expect.objectContaining({ code: "NOT_FOUND", field: ["input", "cluster"] }),
      ]);
    });

    it("a duplicate name, and a name Connect cannot hold", async () => {
      const r = registry();
      const name = fresh("d");
      const cluster = await bound(r, name);
      expect((await mutate(r, CREATE, { name, cluster, type: "file", config: file })).userErrors).toEqual([]);
      expect(await refused({ name, cluster, type: "file", config: file })).toEqual([
        expect.objectContaining({ code: "ALREADY_EXISTS", field: ["input", "name"] }),
      ]);
      expect(await refused({ name: "a/b", cluster, type: "file", config: file })).toEqual([
        expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "name"] }),
      ]);
    });
  });
});
