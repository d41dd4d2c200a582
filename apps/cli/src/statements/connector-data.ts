import { execute, type Warning } from "../client/execute.ts";
import { waitUntil, type Probe } from "../wait.ts";
import type { StatusData } from "./binding-status.ts";
import { STATUS, type StatementContext } from "./context.ts";
import { namespaceInput } from "./namespaced.ts";

/** Sources and sinks are one family: the API names them alike, apart from the noun. */
export type Noun = "Source" | "Sink";

/** "Source" for a STREAM SOURCE statement, "Sink" for a STREAM SINK one. */
export function nounOf(s: { kind: string }): Noun {
  return s.kind.endsWith("Source") ? "Source" : "Sink";
}

/** The source's or sink's name, as the statement gives it. */
export function nameOf(s: { source: string } | { sink: string }): string {
  return "source" in s ? s.source : s.sink;
}

/** The run state a user asks for (PAUSE, RESUME, STOP). */
export type RunState = "RUNNING" | "PAUSED" | "STOPPED";

/** One task of the connector as the registry last observed it on Connect. */
export interface ConnectorTaskData {
  id: number;
  state: string;
  workerId: string | null;
  error: string | null;
}

/** What the registry last saw of the connector on its platform; null before the first look. */
export interface ObservationData {
  state: string;
  tasks: ConnectorTaskData[];
  error: string | null;
  autoRestarts: number;
  lastRestartAt: string | null;
  message: string | null;
  observedAt: string;
}

/** What it is doing, from its binding's data in flight at the registry's last poll (flow). */
export interface ConnectorFlowData {
  observedAt: string;
  processed: number;
  processing: boolean | null;
  lag: number | null;
  lastError: string | null;
}

export const CONNECTOR_FLOW = "flow { observedAt processed processing lag lastError }";

/** A source or sink as srctl selects it (StreamSource / StreamSink). */
export interface ConnectorData {
  namespace: string;
  name: string;
  cluster: { name: string };
  type: string;
  desiredState: RunState;
  /** The seed's STATUS column: PENDING, ONLINE, PAUSED, STOPPED, FAILED, DEGRADED, DELETING. */
  state: string;
  status: StatusData;
  observed: ObservationData | null;
  /** Selected by DESCRIBE of registries that have it. */
  flow?: ConnectorFlowData | null;
}

const OBSERVED =
  "observed { state tasks { id state workerId error } error autoRestarts lastRestartAt message observedAt }";
export const CONNECTOR_FIELDS = `namespace name cluster { name } type desiredState state ${STATUS} ${OBSERVED}`;

/** "stream source widgets_src", as messages name it. */
export function connectorLabel(noun: Noun, name: string): string {
  return `stream ${noun.toLowerCase()} ${name}`;
}

/** The object of a mutation's --output json line. */
export function connectorObject(noun: Noun, connector: ConnectorData): Record<string, unknown> {
  return {
    kind: `stream${noun}`,
    namespace: connector.namespace,
    name: connector.name,
    cluster: connector.cluster.name,
    type: connector.type,
    desiredState: connector.desiredState,
    state: connector.state,
    ...connector.status,
  };
}

/** `source(name, namespace)` or `sink(...)`: null when there is none of that name. */
export async function fetchConnector(
  context: StatementContext,
  noun: Noun,
  name: string,
  statement: string,
  more = "",
): Promise<{ connector: ConnectorData | null; warnings: Warning[] }> {
  const field = noun.toLowerCase();
  const answer = await execute<ConnectorData | null>(context, {
    statement,
    root: "Query",
    field,
    query: `query Srctl${noun}($name: String!, $namespace: String) {
      ${field}(name: $name, namespace: $namespace) { ${CONNECTOR_FIELDS} ${more} } }`,
    variables: { name, ...namespaceInput(context) },
  });
  return { connector: answer.value, warnings: answer.warnings };
}

/** The STATUS a connector shows once it runs as desired. */
const SETTLED_STATE: Record<RunState, string> = {
  RUNNING: "ONLINE",
  PAUSED: "PAUSED",
  STOPPED: "STOPPED",
};

/**
 * How a wait ends: `settled` when it runs as desired, `gone` after a delete; `restarted` like
 * settled, except that a failure is believed only from an observation newer than `after` (the
 * one the restart answered with), as until then it may be the failure the restart is for.
 */
export type WaitFor = { until: "settled" | "gone" } | { until: "restarted"; after: string | null };

/**
 * Waits until a source or sink runs as desired at its latest generation (ONLINE, PAUSED or
 * STOPPED), or is gone after a delete. FAILED or DEGRADED ends the wait with the first error.
 * Returns it as last seen (null when gone).
 */
export async function waitForConnector(
  context: StatementContext,
  noun: Noun,
  name: string,
  waitFor: WaitFor,
): Promise<ConnectorData | null> {
  if (!context.wait) return null;
  let last: ConnectorData | null = null;
  await waitUntil(context.wait, connectorLabel(noun, name), async (): Promise<Probe> => {
    last = (await fetchConnector(context, noun, name, `${noun.toLowerCase()} status`)).connector;
    return settled(last, waitFor);
  });
  return last;
}

function settled(connector: ConnectorData | null, waitFor: WaitFor): Probe {
  if (!connector)
    return waitFor.until === "gone" ? { state: "done" } : { state: "failed", detail: "deleted" };
  const { state, desiredState, status, observed } = connector;
  const why = observed?.error ?? observed?.tasks.find((t) => t.error)?.error ?? status.message;
  const detail = why ? `${state} (${why})` : state;
  if (waitFor.until === "gone") return { state: "waiting", detail };
  const failed = state === "FAILED" || state === "DEGRADED";
  if (failed && waitFor.until === "restarted" && (observed?.observedAt ?? "") <= (waitFor.after ?? "")) {
    return { state: "waiting", detail: `${state} (restart requested)` };
  }
  if (failed) return { state: "failed", detail };
  const current = status.observedGeneration === status.generation;
  return state === SETTLED_STATE[desiredState] && current ? { state: "done" } : { state: "waiting", detail };
}
