import type { ConfigMaps, ConnectorRunState } from "@stream-registry/core";
import type { ConfigIssue } from "./errors.ts";
import type { ClusterTarget, OperationContext } from "./operation.ts";
import type { ResourceManager, ResourceObservation } from "./resource-manager.ts";

/**
 * A stream source or sink as observe and remove name it: by convention its name is the name of
 * the stream it writes (a source) or reads (a sink), which must be bound on `cluster`.
 */
export interface ConnectorTarget {
  name: string;
  cluster: ClusterTarget;
}

/**
 * How a source or sink should run (core's type): pause, resume and stop are desired state, kept by
 * the registry and realized (and realized again after a worker restart) like its config.
 */
export type { ConnectorRunState };

/**
 * A source's or sink's desired state, as a create or an update sends it: the seed's StreamSource /
 * StreamSink DTO without its status, which the registry keeps (the kernel owns phases).
 */
export interface ConnectorRequest extends ConnectorTarget {
  /** One of the types the manager lists for the cluster, e.g. "postgres". */
  type: string;
  /** The seed's config maps as the user gave them (secrets opened); docs/connect.md gives the rule. */
  configMaps: ConfigMaps;
  /** The run state the user asked for; RUNNING unless paused or stopped. */
  state: ConnectorRunState;
}

/**
 * A connector's state on its platform, after Kafka Connect's: DEGRADED is a RUNNING connector with
 * a failed task.
 */
export const CONNECTOR_STATES = [
  "UNASSIGNED",
  "RUNNING",
  "PAUSED",
  "STOPPED",
  "FAILED",
  "RESTARTING",
  "DEGRADED",
] as const;
export type ConnectorState = (typeof CONNECTOR_STATES)[number];

/** One task of a connector as last seen. */
export type ConnectorTaskObservation = {
  id: number;
  state: Exclude<ConnectorState, "DEGRADED">;
  /** The worker running it, e.g. "127.0.0.1:8083". */
  workerId?: string;
  /** The first line of a failed task's stack trace. */
  error?: string;
};

/**
 * What a provider saw of a source or sink on its platform: `details.state` is the connector's
 * state (DEGRADED when running with a failed task), `details.tasks` its tasks, `details.error`
 * the first line of the first failure's trace.
 */
export type ConnectorObservation = ResourceObservation & {
  details: {
    state: ConnectorState;
    tasks: ConnectorTaskObservation[];
    error?: string;
  };
};

/** A source or sink type a cluster offers, e.g. `{ name: "postgres", class: "io.debezium..." }`. */
export interface ConnectorType {
  /** The friendly name users give in WITH TYPE, e.g. "file", "postgres", "jdbc". */
  name: string;
  /** The platform's own name for it (Connect's connector class). */
  class: string;
  version?: string;
}

/**
 * Sources and sinks are managed alike: ResourceManager, plus the types a cluster offers, a
 * validation that creates nothing, and a restart.
 */
export interface ConnectorManager extends ResourceManager<
  ConnectorRequest,
  ConnectorObservation,
  ConnectorTarget
> {
  /**
   * The types the cluster offers; [] when the cluster has no platform for them (for Kafka: no
   * Connect worker in its config), with `reason` saying so.
   */
  types(
    cluster: ClusterTarget,
    context: OperationContext,
  ): Promise<{ types: ConnectorType[]; reason?: string }>;
  /**
   * Checks a request against the platform without creating anything (for Kafka: Connect's
   * validate call): the issues found, each naming its field as the user gave it, e.g.
   * ["postgres-source", "database.hostname"]. An unknown type is an issue on ["type"].
   */
  validate(request: ConnectorRequest, context: OperationContext): Promise<ConfigIssue[]>;
  /**
   * Restarts the connector and its tasks (only the failed ones with `onlyFailed`): an operator's
   * RESTART, or the registry's automatic restart of a failed one. A missing one is an error.
   */
  restart(
    target: ConnectorTarget,
    options: { onlyFailed: boolean },
    context: OperationContext,
  ): Promise<void>;
}

/**
 * The seed's StreamSourceManager on the shape of every realized kind: its createStreamSource is
 * `create`, getStreamSource `observe` (null when absent), updateStreamSource `update` and
 * deleteStreamSource `remove`; getSourceTypes is `types`. Failures are thrown as StreamSourceError.
 */
export type StreamSourceManager = ConnectorManager;

/**
 * The seed's StreamSinkManager, mapped as StreamSourceManager is: exports one stream to a data
 * store. Failures are thrown as StreamSinkError.
 */
export type StreamSinkManager = ConnectorManager;
