import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  isTransientProviderError,
  ResourceConflictError,
  StreamSinkError,
  StreamSourceError,
  type ClusterTarget,
  type ConnectorObservation,
  type ConnectorRequest,
} from "@stream-registry/provider-api";
import { useConnectWorker, useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaProvider } from "../src/index.ts";
import {
  clusterTarget,
  context,
  eventually,
  ownAdmin,
  providerFailure,
  topicName,
} from "./support/kafka-targets.ts";

const kafka = useSharedKafkaClusters();
const connect = useConnectWorker(() => kafka.at(0).bootstrapServers);
const provider = createKafkaProvider({ logLevel: "nothing" });
let dir: string;
let cluster: ClusterTarget;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sr-connectors-"));
  cluster = {
    ...clusterTarget(kafka.at(0).bootstrapServers, "connect-c1"),
    config: {
      "apache.kafka": { "bootstrap.servers": kafka.at(0).bootstrapServers },
      "kafka.connect": { url: connect.worker.url },
    },
  };
});
afterAll(async () => {
  await provider.close();
  await rm(dir, { recursive: true, force: true });
});

const request = (name: string, type: string, maps: ConnectorRequest["configMaps"]): ConnectorRequest => ({
  name,
  type,
  cluster,
  configMaps: maps,
  state: "RUNNING",
});

/** The stream's topic, as its binding would have made it. */
async function bindTopic(name: string) {
  await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
  await admin.createTopics({
    topics: [{ topic: name, numPartitions: 1, replicationFactor: 1 }],
    waitForLeaders: true,
  });
}

/**
 * Polls observe until the connector shows `state` (Connect starts tasks asynchronously), and what
 * `also` checks of it.
 */
function observedAs(
  manager: typeof provider.sinks,
  name: string,
  state: string,
  also: (observed: ConnectorObservation) => void = () => {},
): Promise<ConnectorObservation> {
  return eventually(async () => {
    const observed = await manager.observe({ name, cluster }, context());
    expect(observed?.details.state).toBe(state);
    also(observed!);
    return observed!;
  }, 30_000);
}

describe("Kafka Connect types", () => {
  it("lists source and sink types by friendly name from the worker's plugins, MirrorMaker's left out", async () => {
    const sources = await provider.sources.types(cluster, context());
    const sinks = await provider.sinks.types(cluster, context());
    expect(sources.types).toContainEqual(
      expect.objectContaining({
        name: "file",
        class: "org.apache.kafka.connect.file.FileStreamSourceConnector",
      }),
    );
    expect(sinks.types).toContainEqual(
      expect.objectContaining({
        name: "file",
        class: "org.apache.kafka.connect.file.FileStreamSinkConnector",
      }),
    );
    expect(
      [...sources.types, ...sinks.types].map((t) => t.class).filter((c) => c.includes(".mirror.")),
    ).toEqual([]);
    expect(sources.reason).toBeUndefined();
  });

  it("offers none on a cluster without a Connect worker, and says so", async () => {
    const bare = clusterTarget(kafka.at(0).bootstrapServers, "no-connect");
    expect(await provider.sources.types(bare, context())).toEqual({
      types: [],
      reason: 'cluster "no-connect" has no Kafka Connect worker (kafka.connect.url)',
    });
  });
});

describe("Kafka Connect validation", () => {
  it("names the user's map and key for Connect's field errors, the type and the name, and creates nothing", async () => {
    const name = topicName("validate");
    const issues = await provider.sources.validate(
      request(name, "file", { "file-source": { file: "/tmp/x", "tasks.max": "zero" }, extra: { a: 1 } }),
      context(),
    );
    expect(issues.map((issue) => issue.field)).toEqual([["extra"], ["file-source", "tasks.max"]]);
    expect(issues[1]!.message).toMatch(/tasks\.max/);
    const unknown = await provider.sinks.validate(request(name, "nope", {}), context());
    expect(unknown).toEqual([
      { field: ["type"], message: expect.stringContaining('unknown stream sink type "nope"') },
    ]);
    const badName = await provider.sinks.validate(
      request("a/b", "file", { "file-sink": { file: "/tmp/y" } }),
      context(),
    );
    expect(badName.map((issue) => issue.field)).toEqual([["name"]]);
    const given = await provider.sinks.validate(
      request(name, "file", { "file-sink": { topics: "other" } }),
      context(),
    );
    expect(given).toEqual([
      { field: ["file-sink", "topics"], message: expect.stringContaining("filled in by the registry") },
    ]);
    expect((await connect.worker.request<string[]>("GET", "/connectors")).join()).not.toContain(name);
  });

  it("refuses a create Connect refuses with its field errors, making nothing", async () => {
    const name = topicName("refused");
    const error = await providerFailure(
      provider.sinks.create(
        request(name, "file", { "file-sink": { file: "/tmp/z", "tasks.max": "zero" } }),
        context(),
      ),
    );
    expect(error).toBeInstanceOf(StreamSinkError);
    expect(error.retriable).toBe(false);
    expect(error.issues.map((issue) => issue.field)).toEqual([["file-sink", "tasks.max"]]);
    expect(await provider.sinks.observe({ name, cluster }, context())).toBeNull();
  });
});

describe("a file source and a file sink on a real worker", () => {
  it("moves a file's lines into the stream's topic and out to a file, and pauses, resumes, stops, restarts and deletes", async () => {
    const name = topicName("flow");
    await bindTopic(name);
    const input = join(dir, `${name}.in`);
    const output = join(dir, `${name}.out`);
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`);
    await writeFile(input, `${lines.join("\n")}\n`);
    const source = request(name, "file", {
      "file-source": { file: input },
      "acme.file-source": { team: "widgets" },
    });
    const sink = request(name, "file", { "file-sink": { file: output } });
    await provider.sources.create(source, context());
    await provider.sinks.create(sink, context());
    await observedAs(provider.sources, name, "RUNNING");
    await observedAs(provider.sinks, name, "RUNNING");
    // The registry's config reached Connect: the topic from the binding, the class from the type,
    // the marker; the dotted map did not.
    const onWorker = await connect.worker.request<Record<string, string>>(
      "GET",
      `/connectors/${name}-source/config`,
    );
    expect(onWorker).toMatchObject({ topic: name, file: input, "stream.registry.owner": "/:connect-c1" });
    expect(JSON.stringify(onWorker)).not.toContain("widgets");
    await eventually(
      async () => expect((await readFile(output, "utf8")).trimEnd().split("\n")).toEqual(lines),
      30_000,
    );
    // A second create adopts its own connector.
    await provider.sinks.create(sink, context());

    await provider.sinks.update({ ...sink, state: "PAUSED" }, context());
    await observedAs(provider.sinks, name, "PAUSED");
    await provider.sinks.update({ ...sink, state: "RUNNING" }, context());
    await observedAs(provider.sinks, name, "RUNNING");
    await provider.sinks.update({ ...sink, state: "STOPPED" }, context());
    // Connect shows the connector STOPPED a moment before it has dropped its tasks.
    await observedAs(provider.sinks, name, "STOPPED", (stopped) => expect(stopped.details.tasks).toEqual([]));
    await provider.sinks.update(sink, context());
    await observedAs(provider.sinks, name, "RUNNING");
    await provider.sinks.restart({ name, cluster }, { onlyFailed: false }, context());
    await observedAs(provider.sinks, name, "RUNNING");

    await provider.sinks.remove({ name, cluster }, context());
    await provider.sources.remove({ name, cluster }, context());
    expect(await provider.sinks.observe({ name, cluster }, context())).toBeNull();
    await provider.sinks.remove({ name, cluster }, context());
    const missing = await providerFailure(
      provider.sinks.restart({ name, cluster }, { onlyFailed: true }, context()),
    );
    expect(missing).toBeInstanceOf(StreamSinkError);
  });

  it("created paused, stays paused (Connect's initial_state)", async () => {
    const name = topicName("paused");
    await bindTopic(name);
    const sink = {
      ...request(name, "file", { "file-sink": { file: join(dir, `${name}.out`) } }),
      state: "PAUSED" as const,
    };
    await provider.sinks.create(sink, context());
    await observedAs(provider.sinks, name, "PAUSED");
    await provider.sinks.remove({ name, cluster }, context());
  });

  it("shows a failed task as DEGRADED with the first line of its trace", async () => {
    const name = topicName("failing");
    await bindTopic(name);
    const folder = join(dir, `${name}-is-a-folder`);
    await mkdir(folder);
    await provider.sinks.create(request(name, "file", { "file-sink": { file: folder } }), context());
    const observed = await observedAs(provider.sinks, name, "DEGRADED");
    expect(observed.details.tasks[0]).toMatchObject({ id: 0, state: "FAILED" });
    expect(observed.details.error).toMatch(/Is a directory|ConnectException/);
    expect(observed.details.error).not.toContain("\n");
    await provider.sinks.restart({ name, cluster }, { onlyFailed: true }, context());
    await observedAs(provider.sinks, name, "DEGRADED");
    await provider.sinks.remove({ name, cluster }, context());
  });
});

describe("connectors the registry did not make", () => {
  it("are not taken over: a create is a conflict, observe sees none, remove leaves it", async () => {
    const name = topicName("by-hand");
    await connect.worker.request("PUT", `/connectors/${name}-sink/config`, {
      "connector.class": "org.apache.kafka.connect.file.FileStreamSinkConnector",
      topics: name,
      file: join(dir, `${name}.out`),
    });
    // Until the worker has read its own write, it answers 409 (stale config), which the provider
    // rightly takes as retriable: the look below must meet the hand-made connector, not that.
    await connect.worker.request("GET", `/connectors/${name}-sink/config`);
    const error = await providerFailure(
      provider.sinks.create(
        request(name, "file", { "file-sink": { file: join(dir, "mine.out") } }),
        context(),
      ),
    );
    expect(error).toBeInstanceOf(ResourceConflictError);
    expect(error.retriable).toBe(false);
    expect(await provider.sinks.observe({ name, cluster }, context())).toBeNull();
    await provider.sinks.remove({ name, cluster }, context());
    expect(await connect.worker.request<string[]>("GET", "/connectors")).toContain(`${name}-sink`);
    await connect.worker.request("DELETE", `/connectors/${name}-sink`);
  });
});

describe("secrets in a connector's config", () => {
  it("reach Connect, which shows them, but never the registry's observation or errors", async () => {
    const name = topicName("secret");
    const secret = `pw-${name}`;
    const sink = request(name, "file", {
      "file-sink": { file: join(dir, `${name}.out`), "database.password": secret },
    });
    await provider.sinks.create(sink, context());
    const shown = await connect.worker.request("GET", `/connectors/${name}-sink`);
    expect(JSON.stringify(shown)).toContain(secret);
    const observed = await observedAs(provider.sinks, name, "RUNNING");
    expect(JSON.stringify(observed)).not.toContain(secret);
    const issues = await provider.sinks.validate(
      request(name, "file", { "file-sink": { "database.password": secret, "tasks.max": secret } }),
      context(),
    );
    expect(issues.map((issue) => issue.field)).toEqual([["file-sink", "tasks.max"]]);
    expect(JSON.stringify(issues)).not.toContain(secret);
    const conflict = await providerFailure(
      provider.sinks.create(
        { ...sink, configMaps: { "file-sink": { file: secret, "database.password": secret } } },
        context(),
      ),
    );
    expect(conflict.message).not.toContain(secret);
    await provider.sinks.remove({ name, cluster }, context());
  });
});

describe("a worker that is down", () => {
  it("is a retriable error until it is back with the connectors it had, and a refused address a permanent one", async () => {
    const refusing = createKafkaProvider({ logLevel: "nothing" });
    refusing.registryWillStart({ connect: { restricted: true, allows: () => Promise.resolve(false) } });
    const refused = await providerFailure(refusing.sources.types(cluster, context()));
    expect(refused).toBeInstanceOf(StreamSourceError);
    expect(refused.retriable).toBe(false);
    expect(refused.issues).toEqual([
      { field: ["kafka.connect", "url"], message: expect.stringContaining("REGISTRY_CONNECT_ALLOW") },
    ]);
    await refusing.close();

    const name = topicName("restarted");
    await bindTopic(name);
    await provider.sinks.create(
      request(name, "file", { "file-sink": { file: join(dir, `${name}.out`) } }),
      context(),
    );
    await connect.worker.stop();
    const down = await providerFailure(provider.sinks.observe({ name, cluster }, context()));
    expect(down).toBeInstanceOf(StreamSinkError);
    expect(isTransientProviderError(down)).toBe(true);
    // The worker back: the sink is still there (Connect keeps it in its config topic) and runs again.
    await connect.worker.start();
    await observedAs(provider.sinks, name, "RUNNING");
    await provider.sinks.remove({ name, cluster }, context());
  });
});
