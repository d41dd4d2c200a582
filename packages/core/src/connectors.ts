import type { ConfigMaps } from "./config-maps.ts";
import { Phase } from "./phase.ts";

/**
 * Stream sources and sinks (seed 000): connectors that write (a source) or read (a sink) the stream
 * of their name on a cluster where that stream is bound. Both are kept, realized and shown alike;
 * their role names which.
 */
export const CONNECTOR_ROLES = ["source", "sink"] as const;
export type ConnectorRole = (typeof CONNECTOR_ROLES)[number];

/** How a source or sink should run (provider-api's ConnectorRunState). */
export type ConnectorRunState = "RUNNING" | "PAUSED" | "STOPPED";

/** A stream source or sink: its desired state, its status block and its automatic restarts. */
export interface StreamConnector {
  id: string;
  role: ConnectorRole;
  /** Its stream's name, which is bound on its cluster. */
  name: string;
  clusterId: string;
  /** One of the types the cluster's provider offers, e.g. "postgres". */
  type: string;
  /** The seed's config maps, as stored: sealed secrets as their placeholders. */
  config: ConfigMaps;
  desiredState: ConnectorRunState;
  generation: number;
  observedGeneration: number | null;
  phase: Phase;
  message: string | null;
  statusUpdatedAt: Date;
  /** How many times the registry restarted it since it last ran healthy, and when it last did. */
  autoRestarts: number;
  lastRestartAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The seed's STATUS column of a source or sink. */
export type ConnectorStatus =
  "PENDING" | "ONLINE" | "PAUSED" | "STOPPED" | "FAILED" | "DEGRADED" | "DELETING";

/** A connector's state on its platform (provider-api's ConnectorState). */
export type ObservedConnectorState =
  "UNASSIGNED" | "RUNNING" | "PAUSED" | "STOPPED" | "FAILED" | "RESTARTING" | "DEGRADED";

const OBSERVED_STATUS: Record<ObservedConnectorState, ConnectorStatus> = {
  UNASSIGNED: "PENDING",
  RESTARTING: "PENDING",
  RUNNING: "ONLINE",
  PAUSED: "PAUSED",
  STOPPED: "STOPPED",
  FAILED: "FAILED",
  DEGRADED: "DEGRADED",
};

/**
 * The STATUS a source or sink shows: the kernel's phase until its desired state is realized
 * (PENDING, FAILED, DELETING), then what its platform last said of it (RUNNING is ONLINE,
 * UNASSIGNED and RESTARTING are PENDING, a running connector with a failed task DEGRADED).
 */
export function connectorStatus(phase: Phase, observed: ObservedConnectorState | undefined): ConnectorStatus {
  if (phase !== Phase.ONLINE) return phase;
  return observed ? OBSERVED_STATUS[observed] : "PENDING";
}

/**
 * When the registry restarts a failed connector (or a running one with a failed task), after
 * Strimzi's autoRestart: the n-th restart waits `delays[n]` after the one before (the last delay
 * repeats), and after `max` restarts it stops trying until the connector ran healthy again.
 */
export interface AutoRestartPolicy {
  delaysMs: readonly number[];
  max: number;
}

/** Strimzi's: 0, 2, 6, 12, 20, 30, 42, 56, 60 minutes, then every hour; at most 7 restarts. */
export const DEFAULT_AUTO_RESTART: AutoRestartPolicy = {
  delaysMs: [0, 2, 6, 12, 20, 30, 42, 56, 60].map((minutes) => minutes * 60_000),
  max: 7,
};

/** Whether a connector seen FAILED or DEGRADED at `now` is due for its next automatic restart. */
export function autoRestartDue(
  connector: Pick<StreamConnector, "autoRestarts" | "lastRestartAt">,
  now: Date,
  policy: AutoRestartPolicy,
): boolean {
  if (connector.autoRestarts >= policy.max) return false;
  if (!connector.lastRestartAt) return true;
  return now.getTime() - connector.lastRestartAt.getTime() >= nextDelay(connector.autoRestarts, policy);
}

/**
 * Whether a connector seen healthy at `now` has run long enough since its last automatic restart
 * for the count to start over (as Strimzi resets it): longer than the next restart would wait.
 */
export function autoRestartsSettled(
  connector: Pick<StreamConnector, "autoRestarts" | "lastRestartAt">,
  now: Date,
  policy: AutoRestartPolicy,
): boolean {
  if (connector.autoRestarts === 0 || !connector.lastRestartAt) return false;
  return now.getTime() - connector.lastRestartAt.getTime() > nextDelay(connector.autoRestarts, policy);
}

/** How long the restart after `restarts` of them waits after the last one (the last delay repeats). */
function nextDelay(restarts: number, { delaysMs }: AutoRestartPolicy): number {
  return delaysMs[Math.min(restarts, delaysMs.length - 1)] ?? 0;
}

/** Parses REGISTRY_CONNECTOR_RESTART_DELAYS_MS: comma-separated delays in milliseconds. */
export function parseRestartDelays(text: string): number[] | undefined {
  const parts = text.split(",").map((part) => part.trim());
  const delays = parts.map(Number);
  if (parts.length === 0 || delays.some((d, i) => parts[i] === "" || !Number.isInteger(d) || d < 0))
    return undefined;
  return delays;
}
