import { setTimeout as sleep } from "node:timers/promises";
import {
  isPermanentProviderError,
  ResourceConflictError,
  StreamSinkError,
  StreamSourceError,
  type ClusterTarget,
  type ConfigIssue,
  type ConnectPolicy,
  type ConnectorManager,
  type ConnectorObservation,
  type ConnectorRequest,
  type ConnectorRunState,
  type ConnectorTarget,
  type ConnectorType,
  type OperationContext,
} from "@stream-registry/provider-api";
import { segment } from "../connection/http-call.ts";
import { askedOnce, connectCall, type ConnectCallContext, type ConnectorFailure } from "./client.ts";
import { connectWorker } from "./connect-config.ts";
import {
  connectorPlan,
  OWNER_KEY,
  ownerOf,
  type ConnectorConfig,
  type ConnectorPlan,
} from "./config-rule.ts";
import { connectNameIssue, validationIssues, type ConnectValidation } from "./validation.ts";
import { embeddedRedactor, requestRedactor, secretRedactor } from "./redaction.ts";
import { observationOf, type ConnectStatus } from "./status.ts";
import type { ConnectorRole } from "@stream-registry/core";
import { findType, typesOf, type ConnectPlugin } from "./types.ts";

/** Why a cluster has no source or sink types: the message of types() and of every refused call. */
export const noWorkerReason = (cluster: ClusterTarget): string =>
  `cluster "${cluster.name}" has no Kafka Connect worker (kafka.connect.url)`;

/**
 * The connector's name on the worker: the stream's name and the role, "<stream>-source" or
 * "<stream>-sink", since a stream may have both and Connect's names are one namespace. A sink's
 * consumer group is Connect's "connect-<connector name>".
 */
export const connectorNameOf = (stream: string, role: ConnectorRole): string => `${stream}-${role}`;

/** Where a connector of `name` stands on the worker: absent, the registry's (with its config), or someone else's. */
type Ownership = { kind: "absent" } | { kind: "ours"; config: ConnectorConfig } | { kind: "foreign" };

/** How long create and update wait for the worker to start what they asked for, and how often they look. */
const SETTLE_MS = 10_000;
const SETTLE_POLL_MS = 200;

const STATE_CALL = { RUNNING: "resume", PAUSED: "pause", STOPPED: "stop" } as const;

/**
 * Stream sources (`role` "source") or sinks ("sink") as connectors of the cluster's Kafka Connect
 * worker ("kafka.connect"): one module for both, the role choosing the plugins offered, how the
 * stream's topic is filled in (config-rule.ts) and the error class. `policy` is the registry's
 * allow-list, read at each call (it is given after the provider is made).
 */
export function createConnectorManager(role: ConnectorRole, policy: () => ConnectPolicy): ConnectorManager {
  const ErrorClass = role === "source" ? StreamSourceError : StreamSinkError;
  const fail: ConnectorFailure = (message, options) => new ErrorClass(message, options);
  const what = `stream ${role}`;
  /** The REST path of a stream's connector. */
  const pathOf = (stream: string) => `/connectors/${segment(connectorNameOf(stream, role))}`;

  function worker(cluster: ClusterTarget, { signal }: OperationContext, redact = embeddedRedactor) {
    signal.throwIfAborted();
    const settings = connectWorker.settingsOf(cluster.config);
    if (!settings) {
      const reason = noWorkerReason(cluster);
      throw fail(reason, { retriable: false, issues: [{ field: ["type"], message: reason }] });
    }
    return { settings, policy: askedOnce(policy()), fail, redact, signal } satisfies ConnectCallContext;
  }

  async function offered(context: ConnectCallContext): Promise<ConnectorType[]> {
    const { status, body } = await connectCall(context, {
      method: "GET",
      path: "/connector-plugins?connectorsOnly=true",
    });
    // A worker starting up listens before its REST resources are there, and answers 404 meanwhile:
    // a worker not ready yet, not one without plugins (which would make every create FAILED for good).
    if (!Array.isArray(body)) {
      const why = `answered ${status}, not a list of plugins (a worker starting?)`;
      throw fail(`Kafka Connect GET /connector-plugins ${why}`, { retriable: true });
    }
    return typesOf(body as ConnectPlugin[], role);
  }

  async function ownership(context: ConnectCallContext, target: ConnectorTarget): Promise<Ownership> {
    const answer = await connectCall(context, { method: "GET", path: `${pathOf(target.name)}/config` });
    if (answer.status === 404) return { kind: "absent" };
    const config = (answer.body ?? {}) as ConnectorConfig;
    return config[OWNER_KEY] === ownerOf(target.cluster) ? { kind: "ours", config } : { kind: "foreign" };
  }

  /** The request's connector config, or a refusal naming every field that is wrong. */
  async function plan(request: ConnectorRequest, context: OperationContext) {
    const call = worker(request.cluster, context, requestRedactor(request.configMaps));
    const nameIssue = connectNameIssue(request.name, connectorNameOf(request.name, role));
    if (nameIssue) throw fail(nameIssue.message, { retriable: false, issues: [nameIssue] });
    const types = await offered(call);
    const type = findType(types, request.type);
    if (!type) {
      const issue = unknownType(request.type, types);
      throw fail(issue.message, { retriable: false, issues: [issue] });
    }
    const planned = connectorPlan(role, request, type);
    if (planned.issues.length > 0) {
      throw fail(planned.issues.map((issue) => issue.message).join("; "), {
        retriable: false,
        issues: planned.issues,
      });
    }
    return { planned, call };
  }

  function unknownType(type: string, types: readonly ConnectorType[]): ConfigIssue {
    const names = types.map((t) => t.name).join(", ") || "none";
    return {
      field: ["type"],
      message: `unknown ${what} type "${type}"; the cluster's Connect worker offers: ${names}`,
    };
  }

  function conflict(request: ConnectorRequest, why: string) {
    return new ResourceConflictError(
      `Kafka Connect already has a connector named "${connectorNameOf(request.name, role)}" ${why}; it was left as it is ` +
        `(delete or rename it on the worker, or choose another name)`,
    );
  }

  /** Its status; a connector whose config is there but whose status is not yet is UNASSIGNED. */
  async function observeOurs(call: ConnectCallContext, name: string): Promise<ConnectorObservation> {
    const answer = await connectCall(call, { method: "GET", path: `${pathOf(name)}/status` });
    return answer.status === 404
      ? pendingObservation()
      : observationOf(answer.body as ConnectStatus, call.redact);
  }

  /**
   * Its status once the worker has started what it was asked to (or SETTLE_MS passed): create and
   * update report where the connector went, not the moment before the worker assigned it.
   */
  async function observeSettled(
    call: ConnectCallContext,
    request: ConnectorRequest,
  ): Promise<ConnectorObservation> {
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const observed = await observeOurs(call, request.name);
      if (isSettled(observed, request.state) || Date.now() > deadline) return observed;
      await sleep(SETTLE_POLL_MS, undefined, { signal: call.signal });
    }
  }

  /** Makes the connector on the worker, in the requested run state from the start (KIP-980). */
  async function make(call: ConnectCallContext, request: ConnectorRequest, planned: ConnectorPlan) {
    await connectCall(call, {
      method: "POST",
      path: "/connectors",
      body: {
        name: connectorNameOf(request.name, role),
        config: planned.config,
        ...(request.state !== "RUNNING" && { initial_state: request.state }),
      },
    });
  }

  async function runAs(call: ConnectCallContext, request: ConnectorRequest) {
    const path = `${pathOf(request.name)}/${STATE_CALL[request.state]}`;
    await connectCall(call, { method: "PUT", path });
  }

  /** Connect's field errors for a planned config, on the user's map and key. */
  async function connectIssues(call: ConnectCallContext, request: ConnectorRequest, planned: ConnectorPlan) {
    const answer = await connectCall(call, {
      method: "PUT",
      path: `/connector-plugins/${segment(planned.config["connector.class"] ?? "")}/config/validate`,
      body: { ...planned.config, name: connectorNameOf(request.name, role) },
    });
    // Connect's own "name" is the registry's choice; the user's name is checked on its own.
    return validationIssues(answer.body as ConnectValidation, planned.map, call.redact).filter(
      (issue) => issue.field[1] !== "name",
    );
  }

  /**
   * Writes a config to Connect; a refusal (Connect answers 400 for an invalid config) carries
   * Connect's field errors as issues, as validate() gives them.
   */
  async function write(
    call: ConnectCallContext,
    request: ConnectorRequest,
    planned: ConnectorPlan,
    work: () => Promise<unknown>,
  ) {
    try {
      await work();
    } catch (error) {
      if (!isPermanentProviderError(error) || error.issues.length > 0) throw error;
      const issues = await connectIssues(call, request, planned).catch(() => []);
      if (issues.length === 0) throw error;
      throw fail(error.message, { retriable: false, issues, cause: error });
    }
  }

  async function realize(request: ConnectorRequest, context: OperationContext, mode: "create" | "update") {
    const { planned, call } = await plan(request, context);
    let current = await ownership(call, request);
    if (current.kind === "absent") {
      try {
        await write(call, request, planned, () => make(call, request, planned));
        return observeSettled(call, request);
      } catch (error) {
        // Made by another hand between the look and the POST (Connect answers 409): whose is it?
        current = await ownership(call, request);
        if (current.kind === "absent") throw error;
      }
    }
    if (current.kind === "foreign") {
      throw conflict(
        request,
        `that this registry did not create (no "${OWNER_KEY}" of cluster "${request.cluster.name}")`,
      );
    }
    if (!sameConfig(current.config, planned.config)) {
      if (mode === "create") throw conflict(request, "with a different config");
      const path = `${pathOf(request.name)}/config`;
      await write(call, request, planned, () =>
        connectCall(call, { method: "PUT", path, body: planned.config }),
      );
    }
    await runAs(call, request);
    return observeSettled(call, request);
  }

  return {
    create: (request, context) => realize(request, context, "create"),
    update: (request, context) => realize(request, context, "update"),

    async observe(target, context) {
      const call = worker(target.cluster, context);
      const current = await ownership(call, target);
      if (current.kind !== "ours") return null;
      return observeOurs({ ...call, redact: secretRedactor(current.config) }, target.name);
    },

    async remove(target, context) {
      const call = worker(target.cluster, context);
      // A connector someone else made under that name is not the registry's to delete.
      if ((await ownership(call, target)).kind !== "ours") return;
      await connectCall(call, { method: "DELETE", path: `${pathOf(target.name)}` });
    },

    async types(cluster, context) {
      context.signal.throwIfAborted();
      if (!connectWorker.settingsOf(cluster.config)) return { types: [], reason: noWorkerReason(cluster) };
      return { types: await offered(worker(cluster, context)) };
    },

    async validate(request, context) {
      context.signal.throwIfAborted();
      if (!connectWorker.settingsOf(request.cluster.config)) {
        return [{ field: ["type"], message: noWorkerReason(request.cluster) }];
      }
      const call = worker(request.cluster, context, requestRedactor(request.configMaps));
      const nameIssue = connectNameIssue(request.name, connectorNameOf(request.name, role));
      const types = await offered(call);
      const type = findType(types, request.type);
      if (!type) return [...(nameIssue ? [nameIssue] : []), unknownType(request.type, types)];
      const planned = connectorPlan(role, request, type);
      const found = await connectIssues(call, request, planned);
      return [...(nameIssue ? [nameIssue] : []), ...planned.issues, ...found];
    },

    async restart(target, { onlyFailed }, context) {
      const call = worker(target.cluster, context);
      const missing = () =>
        fail(`no ${what} "${target.name}" of this registry on the cluster's Connect worker`, {
          retriable: false,
        });
      if ((await ownership(call, target)).kind !== "ours") throw missing();
      const path = `${pathOf(target.name)}/restart?includeTasks=true&onlyFailed=${onlyFailed}`;
      if ((await connectCall(call, { method: "POST", path })).status === 404) throw missing();
    },
  };
}

/** Whether the worker's config is the planned one (Connect adds `name`). */
function sameConfig(current: ConnectorConfig, planned: ConnectorConfig): boolean {
  const keys = (config: ConnectorConfig) =>
    Object.keys(config)
      .filter((key) => key !== "name")
      .sort();
  const mine = keys(planned);
  const theirs = keys(current);
  return (
    mine.length === theirs.length &&
    mine.every((key, i) => theirs[i] === key && current[key] === planned[key])
  );
}

/**
 * Whether the worker has done what was asked: the connector in the requested run state (running
 * with a failed task, or failed, counts for RUNNING) with its tasks placed.
 */
function isSettled({ details }: ConnectorObservation, wanted: ConnectorRunState): boolean {
  const { state, tasks } = details;
  if (state === "FAILED" || state === "STOPPED") return true;
  const reached = wanted === "RUNNING" ? state === "RUNNING" || state === "DEGRADED" : state === wanted;
  const placed =
    tasks.length > 0 && tasks.every((task) => task.state !== "UNASSIGNED" && task.state !== "RESTARTING");
  return reached && placed;
}

/** Made, but not yet reporting a status (the worker assigns it in a moment). */
const pendingObservation = (): ConnectorObservation => ({
  message: "connector UNASSIGNED, 0 of 0 tasks running",
  details: { state: "UNASSIGNED", tasks: [] },
});
