/**
 * The ways npm run bench:connect creates connectors, one column each. A path makes a stream's topic,
 * creates a connector, tells when it runs, and deletes both; everything measured around it is the
 * same for every path.
 * - `directPath`: topics made with kafkajs, connectors POSTed straight on Connect's REST API (the floor);
 * - `registryPath`: a stream bound on the registry's cluster (the binding makes the topic), and
 *   CREATE STREAM SOURCE / SINK through the registry's GraphQL, "running" meaning ONLINE.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { kafkaClient } from "@stream-registry/testkit";
import {
  connectorClasses,
  eventually,
  mutate,
  type ConnectWorker,
  type ConnectorConfig,
  type RegistryClient,
} from "@stream-registry/testkit";

export interface ConnectorPath {
  /** The column's heading, e.g. "direct on Connect". */
  readonly label: string;
  /** Makes `topic` with one partition; resolves once it can be written. */
  createTopic(topic: string): Promise<void>;
  /** Asks for the connector; resolves once the request was accepted (not once it runs). */
  create(name: string, config: ConnectorConfig): Promise<void>;
  /** Resolves once the connector and all its tasks run; throws on a failed task or after `timeoutMs`. */
  waitRunning(name: string, timeoutMs?: number): Promise<void>;
  /** Deletes the connector; resolves once it is gone. */
  remove(name: string): Promise<void>;
  deleteTopic(topic: string): Promise<void>;
}

interface ConnectorStatus {
  connector: { state: string };
  tasks: { state: string; trace?: string }[];
}

type Admin = ReturnType<ReturnType<typeof kafkaClient>["admin"]>;

/** Connectors created with POST /connectors on the worker itself: what the registry is compared with. */
export function directPath(worker: ConnectWorker, admin: Admin): ConnectorPath {
  return {
    label: "direct on Connect",
    async createTopic(topic) {
      // The topic exists before the sink subscribes, so the sink sees it at once.
      await admin.createTopics({
        topics: [{ topic, numPartitions: 1, replicationFactor: 1 }],
        waitForLeaders: true,
      });
    },
    async create(name, config) {
      await worker.request("POST", "/connectors", { name, config });
    },
    async waitRunning(name, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = await worker
          .request<ConnectorStatus>("GET", `/connectors/${name}/status`)
          .catch(() => undefined);
        const failed = status?.tasks.find((task) => task.state === "FAILED");
        if (failed) throw new Error(`${name}'s task failed: ${failed.trace ?? "(no trace)"}`);
        const tasks = status?.tasks ?? [];
        if (
          status?.connector.state === "RUNNING" &&
          tasks.length > 0 &&
          tasks.every((task) => task.state === "RUNNING")
        ) {
          return;
        }
        if (Date.now() > deadline) throw new Error(`${name} not RUNNING after ${timeoutMs} ms`);
        await sleep(20);
      }
    },
    async remove(name) {
      await worker.request("DELETE", `/connectors/${name}`);
    },
    async deleteTopic(topic) {
      await admin.deleteTopics({ topics: [topic] });
    },
  };
}

const USER_ERRORS = "userErrors { code field message }";
const Role = { source: "Source", sink: "Sink" } as const;
type Role = keyof typeof Role;

/**
 * Sources and sinks made through a registry whose `cluster` names the worker: the topic is a
 * stream bound on the cluster, a connector is its stream's source or sink with the same settings
 * as the direct path's (the registry fills in the class and the topic), polled every 20 ms until
 * it shows ONLINE.
 */
export function registryPath(registry: RegistryClient, cluster: string): ConnectorPath {
  const connectors = new Map<string, { role: Role; stream: string }>();
  const find = (name: string) => {
    const found = connectors.get(name);
    if (!found) throw new Error(`no connector ${name} was created through the registry`);
    return found;
  };
  const state = async ({ role, stream }: { role: Role; stream: string }) => {
    const data = await registry.query<
      Record<Role, { state: string; observed: { error: string | null } | null } | null>
    >(`query($name: String!) { ${role}(name: $name) { state observed { error } } }`, { name: stream });
    return data[role];
  };
  const phase = async (stream: string) => {
    const { binding } = await registry.query<{ binding: { status: { phase: string } } | null }>(
      `query($stream: String!, $cluster: String!) { binding(stream: $stream, cluster: $cluster) { status { phase } } }`,
      { stream, cluster },
    );
    return binding?.status.phase ?? null;
  };
  return {
    label: "through the registry",
    async createTopic(topic) {
      await mutate(
        registry,
        `mutation($input: CreateStreamInput!) { createStream(input: $input) { ${USER_ERRORS} } }`,
        { input: { name: topic, config: { "apache.kafka": { partitions: 1, replication: 1 } } } },
      );
      await mutate(
        registry,
        `mutation($input: CreateBindingInput!) { createBinding(input: $input) { ${USER_ERRORS} } }`,
        { input: { stream: topic, cluster } },
      );
      await eventually(
        async () => ((await phase(topic)) === "ONLINE" ? true : undefined),
        60_000,
        `${topic} bound`,
      );
    },
    async create(name, config) {
      const role: Role = config["connector.class"] === connectorClasses.fileSink ? "sink" : "source";
      // What the registry fills in (the class, the topic) and what it leaves to the binding (topic creation).
      const own = Object.fromEntries(
        Object.entries(config).filter(
          ([key]) =>
            !["connector.class", "topic", "topics"].includes(key) && !key.startsWith("topic.creation."),
        ),
      );
      const stream = config.topic ?? config.topics ?? "";
      connectors.set(name, { role, stream });
      await mutate(
        registry,
        `mutation($input: CreateStream${Role[role]}Input!) { createStream${Role[role]}(input: $input) { ${USER_ERRORS} } }`,
        { input: { name: stream, cluster, type: "file", config: { [`file-${role}`]: own } } },
      );
    },
    async waitRunning(name, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const shown = await state(find(name));
        if (shown?.state === "ONLINE") return;
        if (shown?.state === "FAILED" || shown?.state === "DEGRADED")
          throw new Error(`${name} is ${shown.state}: ${shown.observed?.error ?? "(no error)"}`);
        if (Date.now() > deadline) throw new Error(`${name} not ONLINE after ${timeoutMs} ms`);
        await sleep(20);
      }
    },
    async remove(name) {
      const connector = find(name);
      await mutate(
        registry,
        `mutation($input: DeleteStream${Role[connector.role]}Input!) { deleteStream${Role[connector.role]}(input: $input) { ${USER_ERRORS} } }`,
        { input: { name: connector.stream } },
      );
      await eventually(
        async () => ((await state(connector)) === null ? true : undefined),
        60_000,
        `${name} gone`,
      );
    },
    async deleteTopic(topic) {
      await mutate(
        registry,
        `mutation($input: DeleteBindingInput!) { deleteBinding(input: $input) { ${USER_ERRORS} } }`,
        { input: { stream: topic, cluster } },
      );
      await eventually(
        async () => ((await phase(topic)) === null ? true : undefined),
        60_000,
        `${topic} unbound`,
      );
      await mutate(
        registry,
        `mutation($input: DeleteStreamInput!) { deleteStream(input: $input) { ${USER_ERRORS} } }`,
        { input: { name: topic } },
      );
    },
  };
}
