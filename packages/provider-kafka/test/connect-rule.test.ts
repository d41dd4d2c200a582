import type { ConnectorRequest } from "@stream-registry/provider-api";
import { describe, expect, it } from "vitest";
import { connectorPlan, derivedName, typesOf } from "../src/index.ts";
import { requestRedactor } from "../src/connect/redaction.ts";
import { MAX_ERROR_LENGTH, observationOf } from "../src/connect/status.ts";

const cluster = { namespace: "/aws", name: "c1", config: {} };
const request = (type: string, configMaps: ConnectorRequest["configMaps"]): ConnectorRequest => ({
  name: "widgets",
  type,
  cluster,
  configMaps,
  state: "RUNNING",
});
const postgres = { name: "postgres", class: "io.debezium.connector.postgresql.PostgresConnector" };
const fileSource = { name: "file", class: "org.apache.kafka.connect.file.FileStreamSourceConnector" };
const sqlserver = { name: "sqlserver-ct", class: "io.debezium.connector.sqlserver.SqlServerConnector" };

describe("connector types from a worker's plugins", () => {
  it("are friendly names by role, derived for unknown classes, MirrorMaker's left out, clashes by class", () => {
    const plugins = [
      { class: "org.apache.kafka.connect.file.FileStreamSourceConnector", type: "source", version: "4.3.1" },
      { class: "org.apache.kafka.connect.file.FileStreamSinkConnector", type: "sink" },
      { class: "io.debezium.connector.postgresql.PostgresConnector", type: "source" },
      { class: "io.debezium.connector.jdbc.JdbcSinkConnector", type: "sink" },
      { class: "io.confluent.connect.jdbc.JdbcSinkConnector", type: "sink" },
      { class: "com.acme.S3SinkConnector", type: "sink" },
      { class: "org.apache.kafka.connect.mirror.MirrorSourceConnector", type: "source" },
    ];
    expect(typesOf(plugins, "source").map((t) => t.name)).toEqual(["file", "postgres"]);
    expect(typesOf(plugins, "source")[0]).toEqual({ ...fileSource, version: "4.3.1" });
    expect(typesOf(plugins, "sink").map((t) => t.name)).toEqual([
      "file",
      "io.confluent.connect.jdbc.JdbcSinkConnector",
      "jdbc",
      "s3",
    ]);
    expect(derivedName("io.debezium.connector.mysql.MySqlConnector")).toBe("mysql");
  });
});

describe("the config rule", () => {
  it("sends the <type>-<role> map with the class, the topic and the marker, and keeps dotted maps back", () => {
    const plan = connectorPlan(
      "source",
      request("file", { "file-source": { file: "/in", "tasks.max": 1 }, "acme.file-source": { team: "w" } }),
      fileSource,
    );
    expect(plan).toEqual({
      map: "file-source",
      issues: [],
      config: {
        file: "/in",
        "tasks.max": "1",
        "connector.class": fileSource.class,
        topic: "widgets",
        "stream.registry.owner": "/aws:c1",
      },
    });
    expect(
      connectorPlan("sink", request("file", { "file-sink": { file: "/out" } }), fileSource).config.topics,
    ).toBe("widgets");
  });

  it("routes any other source into the stream's topic after the user's transforms, with a Debezium topic.prefix", () => {
    const { config } = connectorPlan(
      "source",
      request("postgres", { "postgres-source": { transforms: "unwrap", "transforms.unwrap.type": "x" } }),
      postgres,
    );
    expect(config).toMatchObject({
      transforms: "unwrap,streamRegistryTopic",
      "transforms.streamRegistryTopic.type": "org.apache.kafka.connect.transforms.RegexRouter",
      "transforms.streamRegistryTopic.regex": ".*",
      "transforms.streamRegistryTopic.replacement": "widgets",
      "topic.prefix": "widgets",
    });
  });

  it("takes the seed's sqlserver-source for type sqlserver-ct, and refuses other dotless maps and filled-in keys", () => {
    expect(
      connectorPlan("source", request("sqlserver-ct", { "sqlserver-source": { a: "b" } }), sqlserver).map,
    ).toBe("sqlserver-source");
    const plan = connectorPlan(
      "sink",
      request("file", { "file-sink": { topics: "other", "connector.class": "x" }, notes: { a: 1 } }),
      fileSource,
    );
    expect(plan.issues.map((issue) => issue.field)).toEqual([
      ["notes"],
      ["file-sink", "topics"],
      ["file-sink", "connector.class"],
    ]);
  });
});

describe("a request's redactor", () => {
  it("hides every map's secrets, also two maps holding the same secret key", () => {
    const redact = requestRedactor({
      "postgres-source": { "database.password": "first-secret", "database.hostname": "db" },
      "jdbc-sink": { "database.password": "second-secret" },
    });
    const shown = redact("login with first-secret failed; then second-secret; host db");
    expect(shown).not.toContain("first-secret");
    expect(shown).not.toContain("second-secret");
    expect(shown).toContain("host db");
  });
});

describe("an observation of Connect's status", () => {
  it("shows a failed task's first trace line redacted and cut, DEGRADED for a running connector", () => {
    const redact = requestRedactor({ "file-sink": { "db.password": "s3cret-value" } });
    const huge = `org.apache.kafka.connect.errors.ConnectException: bad record ${"x".repeat(5000)}`;
    const observed = observationOf(
      {
        connector: { state: "RUNNING", worker_id: "w1" },
        tasks: [
          {
            id: 1,
            state: "FAILED",
            trace: `java.io.IOException: login s3cret-value refused\n\tat A.b(A.java:1)`,
          },
          { id: 0, state: "FAILED", trace: `${huge}\n\tat C.d(C.java:2)` },
        ],
      },
      redact,
    );
    expect(observed.details.state).toBe("DEGRADED");
    expect(observed.details.tasks.map((task) => task.id)).toEqual([0, 1]);
    expect(observed.details.tasks[0]!.error).toHaveLength(MAX_ERROR_LENGTH);
    expect(observed.details.tasks[1]!.error).toBe("java.io.IOException: login ******** refused");
    expect(observed.message!.length).toBeLessThan(MAX_ERROR_LENGTH + 100);
  });
});
