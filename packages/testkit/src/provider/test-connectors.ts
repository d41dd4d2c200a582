import type { ConfigMaps, ConnectorRole } from "@stream-registry/core";
import {
  configRejected,
  InfrastructureError,
  ResourceConflictError,
  type ClusterTarget,
  type ConnectorManager,
  type ConnectorObservation,
  type ConnectorRequest,
  type ConnectorRunState,
  type ConnectorTarget,
} from "@stream-registry/provider-api";
import { testPlatform } from "./test-platform.ts";

/** A source or sink on the test platform: what it was made from, and the failures tests gave it. */
export interface TestConnector {
  type: string;
  configMaps: ConfigMaps;
  state: ConnectorRunState;
  /** Set by a test: the connector failed (FAILED), or one of its tasks did (DEGRADED). */
  failed?: "connector" | "task";
}

/**
 * The pretend Connect behind the test provider's sources and sinks, on globalThis as the test
 * platform is: connectors by `connectorKey`, clusters without a worker, and restarts counted.
 */
export interface TestConnectorPlatform {
  connectors: Map<string, TestConnector>;
  /** Clusters that have no Connect worker: they offer no types. */
  noWorker: Set<string>;
  /** Restarts asked of each connector, by `connectorKey`. */
  restarts: Map<string, number>;
  /** Every request `validate` was given, newest last (to see what a provider is shown). */
  validated: ConnectorRequest[];
}

const key = Symbol.for("stream-registry.test-connectors");

export function testConnectorPlatform(): TestConnectorPlatform {
  const holder = globalThis as { [key]?: TestConnectorPlatform };
  return (holder[key] ??= { connectors: new Map(), noWorker: new Set(), restarts: new Map(), validated: [] });
}

export function connectorKey(role: ConnectorRole, cluster: string, name: string): string {
  return `${role}:${cluster}/${name}`;
}

/** The types every cluster with a worker offers. */
export const TEST_CONNECTOR_TYPES = [
  { name: "file", class: "org.apache.kafka.connect.file.FileStream", version: "test" },
  { name: "postgres", class: "io.debezium.connector.postgresql.PostgresConnector", version: "test" },
];

/**
 * Sources or sinks in memory, honouring the connector contract. Steered by the "test.connector"
 * config map of each: `invalid` (validate reports an issue on that key), `failTimes` (the first N
 * realize calls fail retriably, as a worker that is down or rebalancing), `failPermanently`.
 */
export function testConnectors(role: ConnectorRole): ConnectorManager {
  const platform = testConnectorPlatform;
  const keyOf = (target: ConnectorTarget) => connectorKey(role, target.cluster.name, target.name);
  const realize = async (how: "create" | "update", request: ConnectorRequest, signal: AbortSignal) => {
    signal.throwIfAborted();
    reachable(request.cluster);
    const knobs = request.configMaps["test.connector"] ?? {};
    if (knobs.failPermanently === true) throw configRejected("refused for good (failPermanently)");
    const attempt = count(`${how}:${keyOf(request)}`);
    if (typeof knobs.failTimes === "number" && attempt <= knobs.failTimes)
      throw new InfrastructureError(`worker busy (409), attempt ${attempt}`, { retriable: true });
    const existing = platform().connectors.get(keyOf(request));
    if (how === "create" && existing && existing.type !== request.type)
      throw new ResourceConflictError(`connector "${request.name}" exists with type "${existing.type}"`);
    const next = { type: request.type, configMaps: request.configMaps, state: request.state };
    platform().connectors.set(keyOf(request), next);
    return observation(next);
  };
  return {
    create: (request, { signal }) => realize("create", request, signal),
    update: (request, { signal }) => realize("update", request, signal),
    async observe(target, { signal }) {
      signal.throwIfAborted();
      reachable(target.cluster);
      const found = platform().connectors.get(keyOf(target));
      return found ? observation(found) : null;
    },
    async remove(target, { signal }) {
      signal.throwIfAborted();
      reachable(target.cluster);
      platform().connectors.delete(keyOf(target));
    },
    async types(cluster, { signal }) {
      signal.throwIfAborted();
      reachable(cluster);
      if (platform().noWorker.has(cluster.name))
        return { types: [], reason: `cluster "${cluster.name}" has no Connect worker in its config` };
      return { types: TEST_CONNECTOR_TYPES };
    },
    async validate(request, { signal }) {
      signal.throwIfAborted();
      reachable(request.cluster);
      platform().validated.push(request);
      if (!TEST_CONNECTOR_TYPES.some((type) => type.name === request.type))
        return [{ field: ["type"], message: `unknown type "${request.type}"` }];
      const invalid = request.configMaps["test.connector"]?.invalid;
      return typeof invalid === "string"
        ? [{ field: ["test.connector", invalid], message: `"${invalid}" is refused by the platform` }]
        : [];
    },
    async restart(target, _options, { signal }) {
      signal.throwIfAborted();
      reachable(target.cluster);
      const found = platform().connectors.get(keyOf(target));
      if (!found) throw new InfrastructureError(`connector "${target.name}" is absent`, { retriable: false });
      delete found.failed;
      platform().restarts.set(keyOf(target), (platform().restarts.get(keyOf(target)) ?? 0) + 1);
    },
  };
}

function observation(connector: TestConnector): ConnectorObservation {
  const failed = connector.failed;
  const state = failed === "connector" ? "FAILED" : failed === "task" ? "DEGRADED" : connector.state;
  const taskState = failed ? "FAILED" : connector.state;
  const error = failed ? "java.lang.RuntimeException: failed on the test platform" : undefined;
  return {
    message: `${connector.type} connector ${state}`,
    details: {
      state,
      tasks: [{ id: 0, state: taskState, workerId: "test:8083", ...(error ? { error } : {}) }],
      ...(error ? { error } : {}),
    },
  };
}

function reachable(cluster: ClusterTarget): void {
  if (testPlatform().down.has(cluster.name))
    throw new InfrastructureError(`cannot reach cluster "${cluster.name}"`, { retriable: true });
}

const attempts = new Map<string, number>();

function count(what: string): number {
  const attempt = (attempts.get(what) ?? 0) + 1;
  attempts.set(what, attempt);
  return attempt;
}
