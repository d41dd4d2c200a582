import { randomBytes } from "node:crypto";
import type { ClusterTarget, ConnectorRequest } from "@stream-registry/provider-api";
import {
  debeziumJdbcWrite,
  debeziumPostgresCapture,
  ensureThirdPartyPlugins,
  thirdPartyPluginFolders,
} from "@stream-registry/testkit";
import {
  useConnectWorker,
  useLogicalPostgres,
  useSharedKafkaClusters,
} from "@stream-registry/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaProvider } from "../src/index.ts";
import { context, eventually, ownAdmin } from "./support/kafka-targets.ts";

const kafka = useSharedKafkaClusters();
const pg = useLogicalPostgres();
beforeAll(() => ensureThirdPartyPlugins(), 600_000);
const connect = useConnectWorker(() => kafka.at(0).bootstrapServers, { plugins: thirdPartyPluginFolders() });
const provider = createKafkaProvider({ logLevel: "nothing" });
afterAll(() => provider.close());

const ROWS = 200;

/**
 * Issue 22, Must 3: the config rule on Debezium's connectors, through the provider: a PostgreSQL
 * source whose every captured row lands in the stream's topic (the registry's RegexRouter), and a
 * JDBC sink filled in with that topic, on a real worker with the plugin folders.
 */
describe("Debezium's PostgreSQL source and JDBC sink through the Kafka provider", () => {
  let cluster: ClusterTarget;
  beforeAll(() => {
    cluster = {
      namespace: "/",
      name: "debezium",
      config: {
        "apache.kafka": { "bootstrap.servers": kafka.at(0).bootstrapServers },
        "kafka.connect": { url: connect.worker.url },
      },
    };
  });

  it("offers them as postgres and jdbc", async () => {
    const sources = (await provider.sources.types(cluster, context())).types.map((type) => type.name);
    const sinks = (await provider.sinks.types(cluster, context())).types.map((type) => type.name);
    expect(sources).toEqual(expect.arrayContaining(["file", "postgres"]));
    expect(sinks).toEqual(expect.arrayContaining(["file", "jdbc"]));
    // Debezium's own validation, on the user's map and key.
    const issues = await provider.sources.validate(
      {
        name: "widgets_unvalidated",
        type: "postgres",
        cluster,
        state: "RUNNING",
        configMaps: { "postgres-source": { "database.user": "postgres", "database.dbname": "postgres" } },
      },
      context(),
    );
    expect(issues.map((issue) => issue.field)).toContainEqual(["postgres-source", "database.hostname"]);
  });

  it("captures a table's rows into the stream's topic and writes them to another database", async () => {
    const id = randomBytes(4).toString("hex");
    const stream = `widgets_${id}`;
    const secret = `pg-secret-${id}`;
    const postgres = pg.postgres;
    const [inventory, warehouse] = [`inventory_${id}`, `warehouse_${id}`];
    await postgres.createDatabase(inventory);
    await postgres.createDatabase(warehouse);
    await postgres.withClient(inventory, async (client) => {
      await client.query("CREATE TABLE widgets (id integer PRIMARY KEY, name text NOT NULL)");
      await client.query(
        `INSERT INTO widgets SELECT i, 'widget ' || i FROM generate_series(1, ${ROWS}) AS i`,
      );
    });
    {
      await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
      await admin.createTopics({ topics: [{ topic: stream, numPartitions: 1, replicationFactor: 1 }] });
    }
    const source: ConnectorRequest = {
      name: stream,
      type: "postgres",
      cluster,
      state: "RUNNING",
      configMaps: {
        "postgres-source": debeziumPostgresCapture({
          postgres: { ...postgres, password: secret },
          database: inventory,
          tables: ["public.widgets"],
          slot: `slot_${id}`,
        }),
        "acme.postgres-source": { owner: "bob@acme.com" },
      },
    };
    expect(await provider.sources.validate(source, context())).toEqual([]);
    await provider.sources.create(source, context());
    await eventually(async () => {
      const observed = await provider.sources.observe({ name: stream, cluster }, context());
      expect(observed?.details.state).toBe("RUNNING");
    }, 60_000);
    await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
    await eventually(async () => {
      const offsets = await admin.fetchTopicOffsets(stream);
      expect(offsets.reduce((sum, partition) => sum + Number(partition.high), 0)).toBe(ROWS);
    }, 60_000);

    const sink: ConnectorRequest = {
      name: stream,
      type: "jdbc",
      cluster,
      state: "RUNNING",
      configMaps: {
        "jdbc-sink": {
          ...debeziumJdbcWrite({ postgres, database: warehouse, table: "widgets_copy" }),
          "connection.password": secret,
        },
      },
    };
    await provider.sinks.create(sink, context());
    await eventually(async () => {
      const { rows } = await postgres.withClient(warehouse, (client) =>
        client
          .query<{ count: string }>("SELECT count(*) AS count FROM widgets_copy")
          .catch(() => ({ rows: [{ count: "no table yet" }] })),
      );
      expect(rows).toEqual([{ count: String(ROWS) }]);
    }, 60_000);

    // Connect shows the password; the registry's observations do not.
    const shown = await connect.worker.request("GET", `/connectors/${stream}-source`);
    expect(JSON.stringify(shown)).toContain(secret);
    const observed = [
      await provider.sources.observe({ name: stream, cluster }, context()),
      await provider.sinks.observe({ name: stream, cluster }, context()),
    ];
    expect(observed.map((o) => o?.details.state)).toEqual(["RUNNING", "RUNNING"]);
    expect(JSON.stringify(observed)).not.toContain(secret);

    await provider.sinks.remove({ name: stream, cluster }, context());
    await provider.sources.remove({ name: stream, cluster }, context());
  });
});
