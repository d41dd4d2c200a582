import { readFile, stat } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach } from "vitest";
import {
  AsyncDisposableStack,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  ensureThirdPartyPlugins,
  eventually,
  kafkaClient,
  mutate,
  startConnectWorker,
  startLogicalPostgres,
  startRegistryTree,
  thirdPartyPluginFolders,
  type ConnectWorker,
  type LogicalPostgres,
  type RegistryClient,
  type RegistryNode,
} from "@stream-registry/testkit";
import { owners, useSharedKafkaClusters } from "@stream-registry/testkit/vitest";

// Stream sources and sinks end to end (issue 22, Must 7): real brokers (the run's shared ones), a
// real Connect worker with the Debezium plugins, a logical-replication PostgreSQL, and two registry
// processes in production mode (a parent "/" and its child "/east", each on a PostgreSQL database
// of its own), all started once for a test file and all stopped after it. The child declares a
// Kafka cluster whose "kafka.connect" names the worker; data never passes through a registry.

export type Role = "source" | "sink";

/** The child's settings: quick resyncs (they observe connectors), the flow poller on, short restart delays. */
export const E2E_ENV: Record<string, string> = {
  NODE_ENV: "production",
  RECONCILER_RESYNC_MS: "1000",
  REGISTRY_FLOW_POLL_MS: "1000",
  REGISTRY_HEALTH_INTERVAL_MS: "1000",
  // The first automatic restart at once, the second 5 s after it, later ones after 10 minutes: a
  // test sees both a restart that fixed nothing and one that brought a connector back.
  REGISTRY_CONNECTOR_RESTART_DELAYS_MS: "0,5000,600000",
};

export interface ConnectE2E {
  readonly parent: RegistryNode;
  readonly child: RegistryNode;
  readonly worker: ConnectWorker;
  readonly postgres: LogicalPostgres;
  readonly bootstrapServers: string;
  /** The child's Kafka cluster, with the worker as its "kafka.connect". */
  readonly cluster: string;
}

/**
 * Boots everything in beforeAll (on one AsyncDisposableStack, so a failed boot leaks nothing) and
 * disposes it in afterAll; a failed test prints the registries' and the worker's last lines.
 */
export function useConnectE2E(env: Record<string, string> = E2E_ENV): () => ConnectE2E {
  const kafka = useSharedKafkaClusters();
  const stack = new AsyncDisposableStack();
  let booted: ConnectE2E | undefined;
  beforeAll(async () => {
    const bootstrapServers = kafka.at(0).bootstrapServers;
    await ensureThirdPartyPlugins();
    const [worker, postgres, tree] = await Promise.all([
      startConnectWorker({
        name: "e2e-connect",
        bootstrapServers,
        plugins: thirdPartyPluginFolders(),
        ownerPids: owners(),
      }).then((started) => stack.use(started)),
      startLogicalPostgres({ ownerPids: owners() }).then((started) => stack.use(started)),
      startRegistryTree(["/", "/east"], { kinds: { "/": "postgres", "/east": "postgres" }, env, stack }),
    ]);
    const [parent, child] = [tree.get("/")!, tree.get("/east")!];
    const cluster = "kafka1";
    await mutate(child, DECLARE_CLUSTER, {
      input: {
        name: cluster,
        provider: "kafka",
        config: {
          "apache.kafka": { "bootstrap.servers": bootstrapServers },
          "kafka.connect": { url: worker.url },
        },
      },
    });
    booted = { parent, child, worker, postgres, bootstrapServers, cluster };
  }, 300_000);
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      if (!booted) return;
      for (const node of [booted.parent, booted.child])
        process.stderr.write(`\n--- registry ${node.path} ---\n${node.logs().slice(-60).join("\n")}\n`);
      process.stderr.write(`\n--- Connect worker ---\n${booted.worker.logTail(60)}\n`);
    });
  });
  afterAll(() => stack.disposeAsync(), 120_000);
  return () => {
    if (!booted) throw new Error("the end-to-end setup did not boot (beforeAll failed?)");
    return booted;
  };
}

/** A stream of one partition (records keep their order) bound on `cluster`, its topic made. */
export async function boundStream(node: RegistryClient, name: string, cluster: string): Promise<void> {
  await mutate(node, CREATE_STREAM, {
    input: { name, config: { "apache.kafka": { partitions: 1, replication: 1 } } },
  });
  await mutate(node, CREATE_BINDING, { input: { stream: name, cluster } });
  await eventually(
    async () => {
      const { binding } = await node.query<{ binding: { status: { phase: string } } | null }>(
        `query($stream: String!, $cluster: String!) { binding(stream: $stream, cluster: $cluster) { status { phase } } }`,
        { stream: name, cluster },
      );
      return binding?.status.phase === "ONLINE" ? true : undefined;
    },
    60_000,
    `the binding of ${name} ONLINE`,
  );
}

const USER_ERRORS = "userErrors { code field message }";
const FIELDS = `namespace name type desiredState state status { phase message }
  observed { state error autoRestarts tasks { id state error } }`;
const Role = { source: "Source", sink: "Sink" } as const;

export interface ConnectorView {
  namespace: string;
  name: string;
  type: string;
  desiredState: string;
  state: string;
  status: { phase: string; message: string | null };
  observed: {
    state: string;
    error: string | null;
    autoRestarts: number;
    tasks: { id: number; state: string; error: string | null }[];
  } | null;
}

/** createStreamSource / createStreamSink with the seed's config maps; fails on any userError. */
export async function createConnector(
  node: RegistryClient,
  role: Role,
  input: { name: string; cluster: string; type: string; config: Record<string, unknown>; namespace?: string },
): Promise<ConnectorView> {
  const field = `createStream${Role[role]}`;
  const payload = await mutate<Record<Role, ConnectorView>>(
    node,
    `mutation($input: CreateStream${Role[role]}Input!) { ${field}(input: $input) { ${role} { ${FIELDS} } ${USER_ERRORS} } }`,
    { input },
  );
  return payload[role];
}

/** pause / resume / stop / restart StreamSource or StreamSink; fails on any userError. */
export async function runConnector(
  node: RegistryClient,
  role: Role,
  verb: "pause" | "resume" | "stop" | "restart",
  input: { name: string; namespace?: string; onlyFailed?: boolean },
): Promise<ConnectorView> {
  const type = verb === "restart" ? `RestartStream${Role[role]}Input` : `Stream${Role[role]}RefInput`;
  const payload = await mutate<Record<Role, ConnectorView>>(
    node,
    `mutation($input: ${type}!) { ${verb}Stream${Role[role]}(input: $input) { ${role} { ${FIELDS} } ${USER_ERRORS} } }`,
    { input },
  );
  return payload[role];
}

/** The source or sink as `node` shows it; null when there is none. */
export async function connector(
  node: RegistryClient,
  role: Role,
  name: string,
  namespace?: string,
): Promise<ConnectorView | null> {
  const data = await node.query<Record<Role, ConnectorView | null>>(
    `query($name: String!, $namespace: String) { ${role}(name: $name, namespace: $namespace) { ${FIELDS} } }`,
    { name, namespace },
  );
  return data[role];
}

/** Waits until the source or sink shows `state` (and `also`, when given), returning what it showed. */
export async function untilState(
  node: RegistryClient,
  role: Role,
  name: string,
  state: string | readonly string[],
  also: (view: ConnectorView) => boolean = () => true,
  timeoutMs = 90_000,
): Promise<ConnectorView> {
  const wanted = typeof state === "string" ? [state] : state;
  let last: ConnectorView | null = null;
  try {
    return await eventually(
      async () => {
        last = await connector(node, role, name);
        return last && wanted.includes(last.state) && also(last) ? last : undefined;
      },
      timeoutMs,
      `${role} ${name} ${wanted.join(" or ")}`,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen ${JSON.stringify(last)}`, { cause: error });
  }
}

/** The lines of `file` (none while it does not exist). */
export async function linesOf(file: string): Promise<string[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}

/** Waits until `file` holds exactly `expected`, in order; fails naming what it held instead. */
export async function untilLines(
  file: string,
  expected: readonly string[],
  timeoutMs = 60_000,
): Promise<void> {
  const bytes = Buffer.byteLength(expected.map((line) => `${line}\n`).join(""));
  await eventually(
    async () => {
      if (((await stat(file).catch(() => undefined))?.size ?? 0) < bytes) return undefined;
      const lines = await linesOf(file);
      if (lines.length !== expected.length || lines.some((line, i) => line !== expected[i]))
        throw new Error(`${file} holds ${lines.length} lines, not the ${expected.length} expected in order`);
      return true;
    },
    timeoutMs,
    `${expected.length} lines in ${file}`,
  );
}

/** Records in `topic` now: the sum of its partitions' high watermarks. */
export async function topicEnd(bootstrapServers: string, topic: string): Promise<number> {
  const admin = kafkaClient(bootstrapServers).admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, partition) => sum + Number(partition.high), 0);
  } finally {
    await admin.disconnect();
  }
}
