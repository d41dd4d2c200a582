import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CONNECT_VERSION, ensureConnectJars, kafkaClient, startConnectWorker } from "../src/index.ts";
import { useConnectWorker, useSharedKafkaClusters } from "../src/vitest.ts";
import { groupAlive } from "./support/processes.ts";

interface ConnectorStatus {
  connector: { state: string; trace?: string };
  tasks: { id: number; state: string; trace?: string }[];
}

/** Processes whose command line mentions `text` (a worker's directory is in its JVM's arguments). */
function processesMentioning(text: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("Kafka Connect worker", () => {
  const kafka = useSharedKafkaClusters();
  // A plugin folder of its own: a jar with no plugins in it, so that it is scanned and changes nothing.
  const pluginFolder = join(tmpdir(), `sr-connect-plugin-${randomUUID().slice(0, 8)}`);
  beforeAll(async () => {
    const libDir = await ensureConnectJars();
    await mkdir(pluginFolder);
    await copyFile(
      join(libDir, `connect-mirror-client-${CONNECT_VERSION}.jar`),
      join(pluginFolder, "client.jar"),
    );
  });
  afterAll(() => rm(pluginFolder, { recursive: true, force: true }));
  const connect = useConnectWorker(() => kafka.at(0).bootstrapServers, {
    plugins: { "scanned-only": pluginFolder },
  });

  it("runs the pinned version with the file and MirrorMaker 2 connectors and a plugin folder of its own", async () => {
    const root = await connect.worker.request<{ version: string }>("GET", "/");
    expect(root.version).toBe(CONNECT_VERSION);
    const plugins = await connect.worker.request<{ class: string; type: string }[]>(
      "GET",
      "/connector-plugins",
    );
    expect(plugins.map((plugin) => `${plugin.type} ${plugin.class}`)).toEqual(
      expect.arrayContaining([
        "source org.apache.kafka.connect.file.FileStreamSourceConnector",
        "sink org.apache.kafka.connect.file.FileStreamSinkConnector",
        "source org.apache.kafka.connect.mirror.MirrorSourceConnector",
      ]),
    );
    // Each third-party plugin is a folder of its own under plugin.path.
    expect(readFileSync(connect.worker.logFile, "utf8")).toContain(
      `Loading plugin from: ${join(connect.worker.dir, "plugins", "scanned-only")}`,
    );
  });

  it("moves a file's lines into a topic through a FileStreamSource connector", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sr-connect-file-"));
    const id = randomUUID().slice(0, 8);
    const topic = `connect-file-${id}`;
    const connector = `file-source-${id}`;
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i + 1} of ${id}`);
    const file = join(dir, "input.txt");
    await writeFile(file, `${lines.join("\n")}\n`);
    const client = kafkaClient(kafka.at(0).bootstrapServers);
    const consumer = client.consumer({ groupId: `connect-test-${id}` });
    try {
      await connect.worker.request("PUT", `/connectors/${connector}/config`, {
        "connector.class": "org.apache.kafka.connect.file.FileStreamSourceConnector",
        "tasks.max": "1",
        file,
        topic,
        "key.converter": "org.apache.kafka.connect.storage.StringConverter",
        "value.converter": "org.apache.kafka.connect.storage.StringConverter",
        // The brokers do not create topics on their own: the connector creates its topic.
        "topic.creation.default.replication.factor": "1",
        "topic.creation.default.partitions": "1",
      });
      await vi.waitFor(
        async () => {
          const status = await connect.worker.request<ConnectorStatus>(
            "GET",
            `/connectors/${connector}/status`,
          );
          expect(status.connector.state).toBe("RUNNING");
          expect(status.tasks.map((task) => task.state)).toEqual(["RUNNING"]);
        },
        { timeout: 60_000, interval: 250 },
      );

      // Every line is in the topic (the connector creates it with its first batch)...
      const admin = client.admin();
      await admin.connect();
      try {
        await vi.waitFor(
          async () => {
            const offsets = await admin.fetchTopicOffsets(topic);
            expect(offsets.map((partition) => Number(partition.high))).toEqual([lines.length]);
          },
          { timeout: 60_000, interval: 250 },
        );
      } finally {
        await admin.disconnect();
      }
      // ...and reads back as the file's lines, in order.
      const received: string[] = [];
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          received.push(message.value?.toString("utf8") ?? "(null)");
        },
      });
      await vi.waitFor(() => expect(received).toHaveLength(lines.length), { timeout: 60_000, interval: 250 });
      expect(received).toEqual(lines);
    } finally {
      await consumer.disconnect();
      await connect.worker.request("DELETE", `/connectors/${connector}`).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("stops and removes a worker that cannot start, leaving no process behind", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const name = `connect-taken-${randomUUID().slice(0, 8)}`;
    try {
      await expect(
        startConnectWorker({
          name,
          bootstrapServers: kafka.at(0).bootstrapServers,
          port: (blocker.address() as AddressInfo).port,
        }),
      ).rejects.toThrow(/exited while starting/);
    } finally {
      blocker.close();
    }
    expect(readdirSync(tmpdir()).filter((entry) => entry.startsWith(`sr-${name}-`))).toEqual([]);
    expect(processesMentioning(name)).toEqual([]);
  }, 120_000);

  it("is stopped by the brokers' watchdog when its owner dies", async () => {
    const owner = spawn("sleep", ["600"], { stdio: "ignore" });
    try {
      if (owner.pid === undefined) throw new Error("could not spawn sleep");
      await using worker = await startConnectWorker({
        name: "connect-owned",
        bootstrapServers: kafka.at(0).bootstrapServers,
        ownerPids: [process.pid, owner.pid],
      });
      const { pid } = JSON.parse(readFileSync(join(worker.dir, "worker.json"), "utf8")) as { pid: number };
      expect(groupAlive(pid)).toBe(true);
      owner.kill("SIGKILL");
      await vi.waitFor(() => expect(groupAlive(pid)).toBe(false), { timeout: 30_000, interval: 200 });
    } finally {
      owner.kill("SIGKILL");
    }
  }, 120_000);
});
