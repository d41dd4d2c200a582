import type { StatementOf } from "@stream-registry/ddl";
import { NotFoundError } from "../errors.ts";
import type { Column } from "../output/table.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import {
  CONNECTOR_FLOW,
  fetchConnector,
  nameOf,
  nounOf,
  type ConnectorData,
  type Noun,
} from "./connector-data.ts";
import { inNamespace } from "./namespaced.ts";

interface Table {
  columns: Column[];
  rows: Record<string, unknown>[];
}

/**
 * DESCRIBE STREAM SOURCE / SINK: the seed's table (STREAM SOURCE | CLUSTER | TYPE | STATUS, rules
 * above and below), then what is flowing: how it runs and was last seen, then its tasks.
 */
async function describe(context: StatementContext, noun: Noun, name: string): Promise<Outcome> {
  const statement = `DESCRIBE STREAM ${noun.toUpperCase()}`;
  const flow = (await context.capabilities.has(`Stream${noun}`, "flow")) !== false ? CONNECTOR_FLOW : "";
  const { connector, warnings } = await fetchConnector(context, noun, name, statement, flow);
  if (!connector) {
    throw new NotFoundError(`stream ${noun.toLowerCase()} "${name}" does not exist${inNamespace(context)}`);
  }
  return outcome(
    {
      type: "table",
      style: { boxed: true },
      columns: [
        { key: "name", header: `STREAM ${noun.toUpperCase()}` },
        { key: "cluster", header: "CLUSTER" },
        { key: "type", header: "TYPE" },
        { key: "status", header: "STATUS" },
      ],
      rows: [
        {
          namespace: connector.namespace,
          name: connector.name,
          cluster: connector.cluster.name,
          type: connector.type,
          status: connector.state,
        },
      ],
      more: [runningTable(connector), tasksTable(connector)].filter((t) => t.rows.length > 0),
    },
    warnings,
  );
}

/** How it runs: desired against observed, the errors, the automatic restarts, what is flowing. */
function runningTable(connector: ConnectorData): Table {
  const { observed, status } = connector;
  const rows: { detail: string; value: unknown }[] = [
    { detail: "desired state", value: connector.desiredState },
  ];
  rows.push({
    detail: "connector",
    value: observed ? `${observed.state} (observed ${observed.observedAt})` : "not observed yet",
  });
  if (status.message) rows.push({ detail: "message", value: status.message });
  if (observed?.message && observed.message !== status.message) {
    rows.push({ detail: "platform message", value: observed.message });
  }
  if (observed?.error) rows.push({ detail: "error", value: observed.error });
  if (observed) {
    const last = observed.lastRestartAt ? ` (last ${observed.lastRestartAt})` : "";
    rows.push({ detail: "auto restarts", value: `${observed.autoRestarts}${last}` });
  }
  rows.push(...flowRows(connector));
  return {
    columns: [
      { key: "detail", header: "DETAIL" },
      { key: "value", header: "VALUE" },
    ],
    rows,
  };
}

/** Whether data is moving through it, from its binding's data in flight at the last poll. */
function flowRows({ flow }: ConnectorData): { detail: string; value: unknown }[] {
  if (!flow) return [];
  const processing = flow.processing === null ? "not known yet" : flow.processing ? "yes" : "no";
  return [
    { detail: "records processed", value: flow.processed },
    { detail: "processing", value: processing },
    ...(flow.lag === null ? [] : [{ detail: "lag", value: flow.lag }]),
    ...(flow.lastError ? [{ detail: "last error", value: flow.lastError }] : []),
    { detail: "flow as of", value: flow.observedAt },
  ];
}

/** Its tasks as last observed; none before the first observation. */
function tasksTable(connector: ConnectorData): Table {
  return {
    columns: [
      { key: "id", header: "TASK", align: "right" },
      { key: "state", header: "STATE" },
      { key: "workerId", header: "WORKER" },
      { key: "error", header: "ERROR" },
    ],
    rows: (connector.observed?.tasks ?? []).map((task) => ({ ...task })),
  };
}

export const describeConnector = (
  s: StatementOf<"describeStreamSource" | "describeStreamSink">,
  c: StatementContext,
) => describe(c, nounOf(s), nameOf(s));
