import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  connectorClasses,
  debeziumJdbcSinkConfig,
  debeziumPostgresSourceConfig,
  ensureThirdPartyPlugins,
  fileSinkConfig,
  fileSourceConfig,
  kafkaClient,
  startConnectWorker,
  thirdPartyPluginFolders,
} from "../src/index.ts";
import type { ConnectWorker, ConnectorConfig } from "../src/index.ts";
import { useConnectWorker, useLogicalPostgres, useSharedKafkaClusters } from "../src/vitest.ts";

interface ConnectorStatus {
  connector: { state: string; trace?: string };
  tasks: { id: number; state: string; trace?: string }[];
}

const deadline = { timeout: 120_000, interval: 250 };

/** Creates (PUT) a connector directly on Connect and waits until it and its task run; a failed task fails at once. */
async function createRunning(worker: ConnectWorker, name: string, config: ConnectorConfig): Promise<void> {
  await worker.request("PUT", `/connectors/${name}/config`, config);
  let failure: string | undefined;
  await vi.waitFor(async () => {
    const status = await worker
      .request<ConnectorStatus>("GET", `/connectors/${name}/status`)
      .catch(() => undefined);
    failure ??= status?.tasks.find((task) => task.state === "FAILED")?.trace;
    if (failure !== undefined) return;
    expect(status?.connector.state).toBe("RUNNING");
    expect(status?.tasks.map((task) => task.state)).toEqual(["RUNNING"]);
  }, deadline);
  if (failure !== undefined) throw new Error(`${name}'s task failed: ${failure}`);
}

/** Measured times, printed at the end (docs/connect.md records them; nothing is asserted on them). */
const timings: Record<string, number> = {};

describe("Third-party connectors on a real worker, created directly on Connect", () => {
  const kafka = useSharedKafkaClusters();
  const pg = useLogicalPostgres();
  beforeAll(() => ensureThirdPartyPlugins(), 600_000);
  let workerStarting = 0;
  beforeAll(() => {
    workerStarting = performance.now();
  });
  const connect = useConnectWorker(() => kafka.at(0).bootstrapServers, {
    plugins: thirdPartyPluginFolders(),
  });
  beforeAll(() => {
    timings["worker start with the plugins (ms)"] = Math.round(performance.now() - workerStarting);
  });
  const connectors: string[] = [];
  afterAll(async () => {
    for (const name of connectors)
      await connect.worker.request("DELETE", `/connectors/${name}`).catch(() => {});
    process.stderr.write(`connect-plugins timings: ${JSON.stringify(timings)}\n`);
  });

  it("lists Debezium's PostgreSQL source and JDBC sink, each from its own folder, beside the file connectors", async () => {
    const plugins = await connect.worker.request<{ class: string; type: string; version: string }[]>(
      "GET",
      "/connector-plugins",
    );
    expect(plugins.map((plugin) => `${plugin.type} ${plugin.class}`)).toEqual(
      expect.arrayContaining([
        `source ${connectorClasses.fileSource}`,
        `sink ${connectorClasses.fileSink}`,
        `source ${connectorClasses.debeziumPostgres}`,
        `sink ${connectorClasses.debeziumJdbc}`,
      ]),
    );
    // The JDBC sink's default connection.provider, Hibernate's AgroalConnectionProvider, comes from
    // org.hibernate.orm's hibernate-agroal (Central has no org.hibernate:hibernate-agroal); the next
    // test proves at run time that the sink writes rows with it.
    expect(readdirSync(thirdPartyPluginFolders()["debezium-jdbc"] ?? "")).toEqual(
      expect.arrayContaining(["hibernate-agroal-7.2.19.Final.jar", "hibernate-core-7.2.19.Final.jar"]),
    );
    const log = readFileSync(connect.worker.logFile, "utf8");
    for (const folder of Object.keys(thirdPartyPluginFolders())) {
      expect(log).toContain(`Loading plugin from: ${join(connect.worker.dir, "plugins", folder)}`);
    }
  });

  it("refuses a plugin folder that was never fetched, naming it, and leaves no worker folder", async () => {
    const name = `connect-unfetched-${randomUUID().slice(0, 8)}`;
    const missing = join(tmpdir(), `${name}-jars`);
    await expect(
      startConnectWorker({
        name,
        bootstrapServers: kafka.at(0).bootstrapServers,
        plugins: { unfetched: missing },
      }),
    ).rejects.toThrow(`plugins.unfetched: the folder ${missing} does not exist`);
    expect(readdirSync(tmpdir()).filter((entry) => entry.startsWith(`sr-${name}-`))).toEqual([]);
  });

  it("captures 1,000 inserted rows into one topic with Debezium and writes them to another database with the JDBC sink", async () => {
    const id = randomUUID().slice(0, 8);
    const topic = `widgets-${id}`;
    const source = `pg-source-${id}`;
    const sink = `jdbc-sink-${id}`;
    const slot = `widgets_${id}`;
    const postgres = pg.postgres;
    const [inventory, warehouse] = [`inventory_${id}`, `warehouse_${id}`];
    await postgres.createDatabase(inventory);
    await postgres.createDatabase(warehouse);
    await postgres.withClient(inventory, (client) =>
      client.query(
        "CREATE TABLE widgets (id integer PRIMARY KEY, name text NOT NULL, quantity integer NOT NULL)",
      ),
    );

    let started = performance.now();
    connectors.push(source);
    await createRunning(
      connect.worker,
      source,
      debeziumPostgresSourceConfig({
        postgres,
        database: inventory,
        tables: ["public.widgets"],
        topic,
        slot,
      }),
    );
    // Streaming has begun once the connector holds its replication slot: the rows come from the WAL.
    await vi.waitFor(async () => {
      const { rows } = await postgres.withClient(inventory, (client) =>
        client.query("SELECT active FROM pg_replication_slots WHERE slot_name = $1", [slot]),
      );
      expect(rows).toEqual([{ active: true }]);
    }, deadline);
    timings["Debezium source created to streaming (ms)"] = Math.round(performance.now() - started);

    started = performance.now();
    await postgres.withClient(inventory, (client) =>
      client.query("INSERT INTO widgets SELECT i, 'widget ' || i, i * 3 FROM generate_series(1, 1000) AS i"),
    );
    const client = kafkaClient(kafka.at(0).bootstrapServers);
    const admin = client.admin();
    await admin.connect();
    try {
      await vi.waitFor(async () => {
        const offsets = await admin.fetchTopicOffsets(topic);
        expect(offsets.reduce((sum, partition) => sum + Number(partition.high), 0)).toBe(1000);
      }, deadline);
    } finally {
      await admin.disconnect();
    }
    timings["capture of 1,000 inserted rows into the topic (ms)"] = Math.round(performance.now() - started);

    // Every row is in the one topic, as a Debezium create event.
    const received = new Map<number, { op: string; name: string }>();
    const consumer = client.consumer({ groupId: `connect-plugins-${id}` });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const { payload } = JSON.parse(message.value?.toString("utf8") ?? "null") as {
            payload: { op: string; after: { id: number; name: string } };
          };
          received.set(payload.after.id, { op: payload.op, name: payload.after.name });
        },
      });
      await vi.waitFor(() => expect(received.size).toBe(1000), deadline);
    } finally {
      await consumer.disconnect();
    }
    expect(received.get(1)).toEqual({ op: "c", name: "widget 1" });
    expect(received.get(1000)).toEqual({ op: "c", name: "widget 1000" });

    // The JDBC sink (Hibernate with org.hibernate.orm's Agroal pool) writes them to another database.
    started = performance.now();
    connectors.push(sink);
    await createRunning(
      connect.worker,
      sink,
      debeziumJdbcSinkConfig({ postgres, database: warehouse, topic, table: "widgets_copy" }),
    );
    await vi.waitFor(async () => {
      const { rows } = await postgres.withClient(warehouse, (client) =>
        client.query<{ count: string }>("SELECT count(*) AS count FROM widgets_copy").catch(() => ({
          rows: [{ count: "no table yet" }],
        })),
      );
      expect(rows).toEqual([{ count: "1000" }]);
    }, deadline);
    timings["JDBC sink created to 1,000 rows written (ms)"] = Math.round(performance.now() - started);
    const totals = (database: string, table: string) =>
      postgres.withClient(database, async (client) => {
        const { rows } = await client.query(
          `SELECT count(*) AS count, sum(id) AS ids, sum(quantity) AS quantities FROM ${table}`,
        );
        return rows;
      });
    const original = await totals(inventory, "widgets");
    expect(original).toEqual([{ count: "1000", ids: "500500", quantities: "1501500" }]);
    expect(await totals(warehouse, "widgets_copy")).toEqual(original);
  }, 300_000);

  it("moves a file's lines through a topic into another file, every line in order", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sr-connect-files-"));
    const id = randomUUID().slice(0, 8);
    const topic = `lines-${id}`;
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i + 1} of ${id}`);
    const [input, output] = [join(dir, "input.txt"), join(dir, "output.txt")];
    try {
      await writeFile(input, `${lines.join("\n")}\n`);
      const started = performance.now();
      connectors.push(`file-source-${id}`, `file-sink-${id}`);
      await createRunning(connect.worker, `file-source-${id}`, fileSourceConfig({ file: input, topic }));
      await createRunning(connect.worker, `file-sink-${id}`, fileSinkConfig({ file: output, topic }));
      await vi.waitFor(async () => {
        const written = await readFile(output, "utf8").catch(() => "");
        expect(written.split("\n").length - 1).toBe(lines.length);
      }, deadline);
      timings["file source to file sink, 1,000 lines (ms)"] = Math.round(performance.now() - started);
      expect(await readFile(output, "utf8")).toBe(`${lines.join("\n")}\n`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
