import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { debeziumJdbcWrite, debeziumPostgresCapture, eventually } from "@stream-registry/testkit";
import {
  boundStream,
  connector,
  createConnector,
  linesOf,
  runConnector,
  topicEnd,
  untilLines,
  untilState,
  useConnectE2E,
  type ConnectE2E,
  type ConnectorView,
  type Role,
} from "./support/connect-e2e.ts";

// Issue 22, Must 7: stream sources and sinks created through the registry's GraphQL, with real data
// through a real Connect worker (support/connect-e2e.ts boots it all once for this file).

vi.setConfig({ testTimeout: 180_000 });

const e2e = useConnectE2E();
const id = randomBytes(3).toString("hex");
let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sr-connect-e2e-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const numbered = (stream: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${stream} line ${from + i}`);
const text = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join("");

/** What every test made, for the worker's restart: each stream's source and sink. */
const made: { role: Role; name: string }[] = [];

/** A file source and a file sink on a new bound stream, both ONLINE, with `first` through. */
async function filePipeline(
  { child, cluster }: ConnectE2E,
  name: string,
  first: readonly string[],
): Promise<{ input: string; output: string }> {
  await boundStream(child, name, cluster);
  const [input, output] = [join(dir, `${name}.in`), join(dir, `${name}.out`)];
  await writeFile(input, text(first));
  await createConnector(child, "source", {
    name,
    cluster,
    type: "file",
    config: { "file-source": { file: input } },
  });
  await createConnector(child, "sink", {
    name,
    cluster,
    type: "file",
    config: { "file-sink": { file: output } },
  });
  made.push({ role: "source", name }, { role: "sink", name });
  await untilState(child, "source", name, "ONLINE");
  await untilState(child, "sink", name, "ONLINE");
  await untilLines(output, first);
  return { input, output };
}

const FLOW = `query($stream: String!, $cluster: String!) {
  binding(stream: $stream, cluster: $cluster) { flow { observedAt groups { group lag } } } }`;

/** The lag of the sink's consumer group (connect-<stream>-sink) on its stream's binding, as last polled. */
async function sinkLag({ child, cluster }: ConnectE2E, stream: string): Promise<number | undefined> {
  const { binding } = await child.query<{
    binding: { flow: { groups: { group: string; lag: number }[] } | null } | null;
  }>(FLOW, { stream, cluster });
  return binding?.flow?.groups.find((group) => group.group === `connect-${stream}-sink`)?.lag;
}

const pipeline = { name: `lines_${id}`, input: "", output: "", lines: [] as string[] };

describe("stream sources and sinks through the registry, with real data on Kafka Connect", () => {
  it("a file source feeds the stream's topic and a file sink drains it to a file, every line in order", async () => {
    const setup = e2e();
    const first = numbered(pipeline.name, 1, 500);
    Object.assign(pipeline, await filePipeline(setup, pipeline.name, first));
    const more = numbered(pipeline.name, 501, 2000);
    await appendFile(pipeline.input, text(more));
    pipeline.lines = [...first, ...more];
    await untilLines(pipeline.output, pipeline.lines);
    expect(await topicEnd(setup.bootstrapServers, pipeline.name)).toBe(2000);
  });

  it("a Debezium source captures 1,000 inserted rows and a JDBC sink writes them to another table", async () => {
    const { child, cluster, postgres } = e2e();
    const name = `widgets_${id}`;
    const secret = `pw-${id}-never-shown`;
    const [inventory, warehouse] = [`inventory_${id}`, `warehouse_${id}`];
    await postgres.createDatabase(inventory);
    await postgres.createDatabase(warehouse);
    await postgres.withClient(inventory, async (client) => {
      await client.query("CREATE TABLE widgets (id integer PRIMARY KEY, name text NOT NULL)");
      await client.query("INSERT INTO widgets SELECT i, 'widget ' || i FROM generate_series(1, 1000) AS i");
    });
    await boundStream(child, name, cluster);
    await createConnector(child, "source", {
      name,
      cluster,
      type: "postgres",
      config: {
        "postgres-source": debeziumPostgresCapture({
          postgres,
          database: inventory,
          tables: ["public.widgets"],
          slot: `slot_${id}`,
        }),
        "acme.postgres-source": { owner: "bob@acme.com" },
      },
    });
    await createConnector(child, "sink", {
      name,
      cluster,
      type: "jdbc",
      config: {
        "jdbc-sink": {
          ...debeziumJdbcWrite({ postgres, database: warehouse, table: "widgets_copy" }),
          // Trust authentication takes any password: this one is only there to be hidden.
          "connection.password": secret,
        },
      },
    });
    made.push({ role: "source", name }, { role: "sink", name });
    await untilState(child, "source", name, "ONLINE");
    await untilState(child, "sink", name, "ONLINE");
    const tally = "SELECT count(*)::int AS count, sum(id)::int AS sum FROM";
    const copied = await eventually(
      async () => {
        const { rows } = await postgres.withClient(warehouse, (client) =>
          client.query<{ count: number; sum: number }>(`${tally} widgets_copy`).catch(() => ({ rows: [] })),
        );
        return rows[0]?.count === 1000 ? rows[0] : undefined;
      },
      120_000,
      "1,000 rows in widgets_copy",
    );
    const { rows } = await postgres.withClient(inventory, (client) => client.query(`${tally} widgets`));
    expect(copied).toEqual(rows[0]);
    expect(await topicEnd(e2e().bootstrapServers, name)).toBe(1000);

    // Must 6: the worker shows the sink's password to whoever asks it; the registry never does, not
    // in the sink, its change log, nor the parent's answers.
    const onWorker = await fetch(`${e2e().worker.url}/connectors/${name}-sink/config`).then((r) => r.text());
    expect(onWorker).toContain(secret);
    const answers = [
      await child.query(`query($name: String!) { sink(name: $name) { config observed { error message } } }`, {
        name,
      }),
      await child.query(`{ changes(first: 500) { nodes { entityType data } } }`),
      await e2e().parent.query(`{ sinks(filter: { namespace: "/east" }) { nodes { name config } } }`),
    ];
    expect(JSON.stringify(answers)).toContain(name);
    expect(JSON.stringify(answers)).not.toContain(secret);
  });

  it("pausing a sink stops the flow (its group's lag grows) and resuming restarts it (the lag falls to zero)", async () => {
    const setup = e2e();
    const { child } = setup;
    const [paused, control] = [`paused_${id}`, `control_${id}`];
    const first = { paused: numbered(paused, 1, 100), control: numbered(control, 1, 100) };
    const files = {
      paused: await filePipeline(setup, paused, first.paused),
      control: await filePipeline(setup, control, first.control),
    };
    await runConnector(child, "sink", "pause", { name: paused });
    await untilState(child, "sink", paused, "PAUSED");

    const more = { paused: numbered(paused, 101, 300), control: numbered(control, 101, 300) };
    await appendFile(files.paused.input, text(more.paused));
    await appendFile(files.control.input, text(more.control));
    // The paused stream's source carried its lines into the topic, and the same lines of the control
    // stream went all the way through: the paused sink had the time and the records, and wrote none.
    await eventually(
      async () => ((await topicEnd(setup.bootstrapServers, paused)) === 300 ? true : undefined),
      60_000,
      "300 records in the paused sink's topic",
    );
    await untilLines(files.control.output, [...first.control, ...more.control]);
    expect(await linesOf(files.paused.output)).toEqual(first.paused);
    const lag = await eventually(
      async () => {
        const seen = await sinkLag(setup, paused);
        return seen !== undefined && seen >= 200 ? seen : undefined;
      },
      60_000,
      "the paused sink's lag of 200 reported",
    );
    expect(lag).toBe(200);

    await runConnector(child, "sink", "resume", { name: paused });
    await untilState(child, "sink", paused, "ONLINE");
    await untilLines(files.paused.output, [...first.paused, ...more.paused]);
    await eventually(
      async () => ((await sinkLag(setup, paused)) === 0 ? true : undefined),
      60_000,
      "the resumed sink's lag to fall to zero",
    );
  });

  it("a failed task shows DEGRADED with its reason, and an automatic or a manual restart brings it back once the cause is gone", async () => {
    const { child, cluster } = e2e();
    const [auto, manual] = [`fails_auto_${id}`, `fails_manual_${id}`];
    const folders = { auto: join(dir, `${auto}.out`), manual: join(dir, `${manual}.out`) };
    for (const [name, file] of [
      [auto, folders.auto],
      [manual, folders.manual],
    ] as const) {
      await boundStream(child, name, cluster);
      // The sink's file is a folder: its task fails as it opens it.
      await mkdir(file);
      await createConnector(child, "sink", {
        name,
        cluster,
        type: "file",
        config: { "file-sink": { file } },
      });
      made.push({ role: "sink", name });
    }
    // The reason Connect gives: "ConnectException: Couldn't find or create file '<file>' ...".
    const failing = (file: string, restarts: number) => (view: ConnectorView) =>
      (view.observed?.error ?? "").includes(`Couldn't find or create file '${file}'`) &&
      (view.observed?.autoRestarts ?? 0) >= restarts;

    // Restarted at once (REGISTRY_CONNECTOR_RESTART_DELAYS_MS "0,5000,600000"), still failing; its
    // folder removed, the second restart, 5 s later, brings it back.
    const degraded = await untilState(child, "sink", auto, ["DEGRADED", "FAILED"], failing(folders.auto, 1));
    expect(degraded.observed?.tasks).toEqual([
      expect.objectContaining({ state: "FAILED", error: expect.stringContaining(folders.auto) }),
    ]);
    await rm(folders.auto, { recursive: true });
    const back = await untilState(child, "sink", auto, "ONLINE");
    expect(back.observed?.autoRestarts).toBe(2);

    // Both automatic restarts spent (the next is 10 minutes away): restartStreamSink brings it back.
    await untilState(child, "sink", manual, ["DEGRADED", "FAILED"], failing(folders.manual, 2));
    await rm(folders.manual, { recursive: true });
    await runConnector(child, "sink", "restart", { name: manual, onlyFailed: true });
    const restarted = await untilState(child, "sink", manual, "ONLINE");
    expect(restarted.observed?.tasks.map((task) => task.state)).toEqual(["RUNNING"]);
  });

  it("a parent registry lists them from its discovery index and routes a mutation for the child's namespace to it", async () => {
    const { parent, child } = e2e();
    const listed = (role: Role) =>
      parent.query<Record<string, { nodes: { namespace: string; name: string; state: string }[] }>>(
        `{ ${role}s(first: 100, consistency: INDEX) { nodes { namespace name state } } }`,
      );
    for (const role of ["source", "sink"] as const) {
      const expected = made
        .filter((m) => m.role === role)
        .map((m) => m.name)
        .sort();
      let seen: unknown;
      const names = await eventually(
        async () => {
          seen = await listed(role);
          const { nodes } = (seen as Awaited<ReturnType<typeof listed>>)[`${role}s`]!;
          const names = nodes
            .filter((node) => node.namespace === "/east")
            .map((node) => node.name)
            .sort();
          return JSON.stringify(names) === JSON.stringify(expected) ? names : undefined;
        },
        30_000,
        `the parent's index to list the child's ${role}s`,
      ).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}; it listed ${JSON.stringify(seen)}`);
      });
      expect(names).toEqual(expected);
    }

    const name = pipeline.name;
    await runConnector(parent, "sink", "pause", { namespace: "/east", name });
    await untilState(child, "sink", name, "PAUSED");
    await eventually(
      async () => ((await connector(parent, "sink", name, "/east"))?.state === "PAUSED" ? true : undefined),
      30_000,
      "the parent to show the sink PAUSED",
    );
    await runConnector(parent, "sink", "resume", { namespace: "/east", name });
    await untilState(child, "sink", name, "ONLINE");
  });

  it("after the worker is killed with SIGKILL and started again, every source and sink is ONLINE, none lost or doubled", async () => {
    const { child, worker } = e2e();
    for (const { role, name } of made) await untilState(child, role, name, "ONLINE");
    const listed = async () => {
      const data = await child.query<Record<string, { nodes: { name: string }[]; totalCount: number }>>(
        `{ sources(first: 100) { totalCount nodes { name } } sinks(first: 100) { totalCount nodes { name } } }`,
      );
      return { sources: data.sources!, sinks: data.sinks! };
    };
    const before = await listed();

    const { pid } = JSON.parse(readFileSync(join(worker.dir, "worker.json"), "utf8")) as { pid: number };
    process.kill(-pid, "SIGKILL");
    await eventually(async () => (worker.isRunning() ? undefined : true), 10_000, "the worker gone");
    await worker.start();

    for (const { role, name } of made) await untilState(child, role, name, "ONLINE", undefined, 120_000);
    expect(await listed()).toEqual(before);
    const expected = made.map(({ role, name }) => `${name}-${role}`).sort();
    expect(before.sources.totalCount + before.sinks.totalCount).toBe(expected.length);
    expect((await worker.request<string[]>("GET", "/connectors")).sort()).toEqual(expected);
    // Data flows again, from where it stopped: nothing lost, nothing written twice.
    const more = numbered(pipeline.name, 2001, 2100);
    await appendFile(pipeline.input, text(more));
    await untilLines(pipeline.output, [...pipeline.lines, ...more]);
  });
});
