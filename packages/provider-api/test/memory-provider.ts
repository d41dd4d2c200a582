import type { ConfigMaps } from "@stream-registry/core";
import {
  configRejected,
  InfrastructureError,
  ResourceConflictError,
  settle,
  type BindingRequest,
  type BindingTarget,
  type ClusterTarget,
  type ConfigIssue,
  type ConnectorManager,
  type ConnectorObservation,
  type ConnectorRunState,
  type ConnectorRequest,
  type ConnectorTarget,
  type JsonValue,
  type OperationContext,
  type ReplicationRequest,
  type ResourceManager,
  type ResourceObservation,
  type StreamProvider,
} from "../src/index.ts";

const MAP = "memory";

/** A map's issues: only `shards`, a whole number from 1 to 4, is known. */
function issuesOf(map: ConfigMaps[string] | undefined): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [key, value] of Object.entries(map ?? {})) {
    if (key !== "shards") issues.push({ field: [key], message: `unknown key "${key}"` });
    else if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 4)
      issues.push({ field: ["shards"], message: "shards must be 1 to 4" });
  }
  return issues;
}

/**
 * One realized kind kept in a map, keyed by its target: a create over a resource that differs is a
 * conflict, as a real platform's is. Its batch calls are one call each, settled.
 */
function memoryManager<Request, Target>(
  key: (target: Target) => string,
  targetOf: (request: Request) => Target,
  facts: (request: Request) => { [key: string]: JsonValue },
): Required<ResourceManager<Request, ResourceObservation, Target>> {
  const resources = new Map<string, { [key: string]: JsonValue }>();
  const reached = <T>(value: T, { signal }: OperationContext): T => {
    signal.throwIfAborted();
    return value;
  };
  const manager: Required<ResourceManager<Request, ResourceObservation, Target>> = {
    async create(request, context) {
      const id = key(targetOf(reached(request, context)));
      const existing = resources.get(id);
      const wanted = facts(request);
      if (existing && JSON.stringify(existing) !== JSON.stringify(wanted))
        throw new ResourceConflictError(`${id} exists with other facts`);
      resources.set(id, wanted);
      return { message: "created", details: wanted };
    },
    async update(request, context) {
      const id = key(targetOf(reached(request, context)));
      resources.set(id, facts(request));
      return { message: "updated", details: facts(request) };
    },
    async observe(target, context) {
      const details = resources.get(key(reached(target, context)));
      return details ? { details } : null;
    },
    async remove(target, context) {
      resources.delete(key(reached(target, context)));
    },
    createMany: (requests, context) => Promise.all(requests.map((r) => settle(manager.create(r, context)))),
    removeMany: (targets, context) => Promise.all(targets.map((t) => settle(manager.remove(t, context)))),
  };
  return manager;
}

async function probe(cluster: ClusterTarget, { signal }: OperationContext) {
  signal.throwIfAborted();
  if (cluster.config[MAP]?.["unreachable"]) throw new InfrastructureError("down", { retriable: true });
  return { latencyMs: 0 };
}

const connectorKey = ({ name, cluster }: ConnectorTarget) => `${cluster.name}/${name}`;
const connectorFacts = (request: ConnectorRequest) =>
  ({ type: request.type, state: request.state, ...request.configMaps[MAP] }) as { [key: string]: JsonValue };
/** Sources and sinks in memory: each in the run state its request asked for, with no tasks. */
function connectors(type: string): ConnectorManager {
  const kept = memoryManager<ConnectorRequest, ConnectorTarget>(connectorKey, (r) => r, connectorFacts);
  const seen = (observation: ResourceObservation | void | null): ConnectorObservation | null =>
    observation
      ? { ...observation, details: { state: observation.details!["state"] as ConnectorRunState, tasks: [] } }
      : null;
  return {
    create: async (request, context) => seen(await kept.create(request, context))!,
    update: async (request, context) => seen(await kept.update(request, context))!,
    observe: async (target, context) => seen(await kept.observe(target, context)),
    remove: kept.remove,
    async types(_cluster, { signal }) {
      signal.throwIfAborted();
      return { types: [{ name: type, class: `memory.${type}` }] };
    },
    async validate(request, { signal }) {
      signal.throwIfAborted();
      if (request.type !== type) return [{ field: ["type"], message: `unknown type "${request.type}"` }];
      return issuesOf(request.configMaps[MAP]).map((i) => ({ ...i, field: [MAP, ...i.field] }));
    },
    async restart(target, _options, context) {
      if (!(await kept.observe(target, context)))
        throw new InfrastructureError(`${connectorKey(target)} is absent`, { retriable: false });
    },
  };
}

/**
 * A provider that keeps everything in memory and supports every realized kind: bindings, stream
 * sources and sinks, and replication. It shows the generic contract expressing the seed's
 * managers, and lets the conformance suite's section for them run without a platform.
 */
export function createMemoryProvider() {
  const bindings = memoryManager<BindingRequest, BindingTarget>(
    ({ streamName, cluster }) => `${cluster.name}/${streamName}`,
    (request) => request,
    (request) => ({ ...request.configMaps[MAP] }) as { [key: string]: JsonValue },
  );
  return {
    kind: "memory",
    description: "Keeps every realized kind in memory (provider-api's own tests)",
    configMaps: [{ name: MAP, description: "How many shards", validate: issuesOf }],
    infrastructure: {
      validateCluster: (name: string, config: ConfigMaps, context: OperationContext) =>
        probe({ namespace: "/", name, config }, context),
      probeCluster: probe,
      async validateStream(name: string, configMaps: ConfigMaps, { signal }: OperationContext) {
        signal.throwIfAborted();
        const issues = issuesOf(configMaps[MAP]).map((i) => ({ ...i, field: [MAP, ...i.field] }));
        if (issues.length > 0) throw configRejected(`stream "${name}" is refused`, issues);
      },
      createStreamBinding: bindings.create,
      createStreamBindings: bindings.createMany,
      updateStreamBinding: bindings.update,
      observeStreamBinding: (streamName: string, cluster: ClusterTarget, context: OperationContext) =>
        bindings.observe({ streamName, cluster }, context),
      deleteStreamBinding: (streamName: string, cluster: ClusterTarget, context: OperationContext) =>
        bindings.remove({ streamName, cluster }, context),
      deleteStreamBindings: bindings.removeMany,
    },
    sources: connectors("memory-source"),
    sinks: connectors("memory-sink"),
    replication: memoryManager<ReplicationRequest, ReplicationRequest>(
      (r) => `${r.cluster.name}/${r.remoteNamespace}/${r.remoteCluster.name}/${r.remoteStream}`,
      (r) => r,
      (r) => ({ from: r.remoteCluster.name }),
    ),
  } satisfies StreamProvider;
}
