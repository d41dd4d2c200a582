import {
  CONNECTOR_STATES,
  type ConnectorObservation,
  type ConnectorState,
  type ConnectorTaskObservation,
} from "@stream-registry/provider-api";

/** One state of `GET /connectors/{name}/status`: the connector's or a task's. */
interface ConnectStatusEntry {
  id?: number;
  state?: string;
  worker_id?: string;
  trace?: string;
}

/** `GET /connectors/{name}/status`. */
export interface ConnectStatus {
  connector?: ConnectStatusEntry;
  tasks?: ConnectStatusEntry[];
}

type TaskState = ConnectorTaskObservation["state"];

const stateOf = (state: string | undefined): TaskState =>
  CONNECTOR_STATES.includes(state as ConnectorState) && state !== "DEGRADED"
    ? (state as TaskState)
    : "UNASSIGNED";

/** A trace's first line: the exception and its message, without the stack. */
const firstLine = (trace: string | undefined) => trace?.split("\n", 1)[0]?.trim() || undefined;

/**
 * The longest error kept: an exception's message may quote a whole record or config, and the
 * error is stored with each observation, shown in GraphQL and logged.
 */
export const MAX_ERROR_LENGTH = 1000;

/**
 * A connector's status as the registry shows it: Connect's states, DEGRADED for a RUNNING
 * connector with a failed task, and the first line of the first failure's trace (the connector's,
 * else the first failed task's), each error passed through `redact` and cut to MAX_ERROR_LENGTH.
 */
export function observationOf(status: ConnectStatus, redact: (text: string) => string): ConnectorObservation {
  // Redacted before it is cut, so that no part of a secret is left at the cut.
  const seen = (line: string | undefined) =>
    line === undefined ? undefined : redact(line).slice(0, MAX_ERROR_LENGTH);
  const tasks: ConnectorTaskObservation[] = (status.tasks ?? [])
    .map((task) => {
      const error = task.state === "FAILED" ? seen(firstLine(task.trace)) : undefined;
      return {
        id: task.id ?? 0,
        state: stateOf(task.state),
        ...(task.worker_id !== undefined && { workerId: task.worker_id }),
        ...(error !== undefined && { error }),
      };
    })
    .sort((a, b) => a.id - b.id);
  const connectorState = stateOf(status.connector?.state);
  const failedTask = tasks.find((task) => task.state === "FAILED");
  const state: ConnectorState = connectorState === "RUNNING" && failedTask ? "DEGRADED" : connectorState;
  const error =
    connectorState === "FAILED"
      ? (seen(firstLine(status.connector?.trace)) ?? failedTask?.error)
      : failedTask?.error;
  const running = tasks.filter((task) => task.state === "RUNNING").length;
  const message =
    `connector ${state}, ${running} of ${tasks.length} task${tasks.length === 1 ? "" : "s"} running` +
    (error ? `: ${error}` : "");
  return { message, details: { state, tasks, ...(error !== undefined && { error }) } };
}
