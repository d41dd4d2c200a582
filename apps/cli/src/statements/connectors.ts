import type { StatementOf } from "@stream-registry/ddl";
import { execute } from "../client/execute.ts";
import { NotFoundError } from "../errors.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import { runMutation } from "./mutation.ts";

// Stream sources and sinks (planned). One translation serves both: they differ only in the noun.

interface ConnectorData {
  name: string;
  type: string;
  cluster: { name: string };
  status: { phase: string; message: string | null };
}

const CONNECTOR_FIELDS = "name type cluster { name } status { phase message }";
type Noun = "Source" | "Sink";

function connectorTable(noun: Noun, connector: ConnectorData) {
  return {
    type: "table" as const,
    style: { boxed: true },
    columns: [
      { key: "name", header: `STREAM ${noun.toUpperCase()}` },
      { key: "cluster", header: "CLUSTER" },
      { key: "type", header: "TYPE" },
      { key: "status", header: "STATUS" },
    ],
    rows: [
      {
        name: connector.name,
        cluster: connector.cluster.name,
        type: connector.type,
        status: connector.status.phase,
      },
    ],
  };
}

function confirmation(noun: Noun, connector: ConnectorData, verb?: string) {
  return {
    type: "mutation" as const,
    message: `stream ${noun.toLowerCase()} ${connector.name}: ${verb ?? connector.status.phase}`,
    object: { kind: `stream${noun}`, ...connector, cluster: connector.cluster.name },
  };
}

async function mutate(
  context: StatementContext,
  noun: Noun,
  verb: "Create" | "Update" | "Delete",
  input: Record<string, unknown>,
): Promise<Outcome> {
  const field = `${verb.toLowerCase()}Stream${noun}`;
  const key = `stream${noun}`;
  const answer = await runMutation<Record<string, ConnectorData>>(
    context,
    `${verb.toUpperCase()} STREAM ${noun.toUpperCase()}`,
    field,
    input,
    `${key} { ${CONNECTOR_FIELDS} }`,
  );
  return outcome(confirmation(noun, answer.value[key]!));
}

async function describe(context: StatementContext, noun: Noun, name: string): Promise<Outcome> {
  const field = `stream${noun}`;
  const answer = await execute<ConnectorData | null>(context, {
    statement: `DESCRIBE STREAM ${noun.toUpperCase()}`,
    root: "Query",
    field,
    query: `query SrctlDescribe${noun}($name: String!) { ${field}(name: $name) { ${CONNECTOR_FIELDS} } }`,
    variables: { name },
  });
  if (!answer.value) throw new NotFoundError(`stream ${noun.toLowerCase()} "${name}" does not exist`);
  return outcome(connectorTable(noun, answer.value), answer.warnings);
}

async function types(context: StatementContext, noun: Noun, cluster: string): Promise<Outcome> {
  const field = `${noun.toLowerCase()}Types`;
  const answer = await execute<string[]>(context, {
    statement: `SHOW ${noun.toUpperCase()} TYPES`,
    root: "Query",
    field,
    query: `query SrctlShow${noun}Types($cluster: String!) { ${field}(cluster: $cluster) }`,
    variables: { cluster },
  });
  return outcome(
    {
      type: "table",
      style: { boxed: true },
      columns: [{ key: "type", header: `${noun.toUpperCase()} TYPE` }],
      rows: answer.value.map((type) => ({ type })),
    },
    answer.warnings,
  );
}

export const showSourceTypes = (s: StatementOf<"showSourceTypes">, c: StatementContext) =>
  types(c, "Source", s.cluster);
export const showSinkTypes = (s: StatementOf<"showSinkTypes">, c: StatementContext) =>
  types(c, "Sink", s.cluster);

export const createStreamSource = (s: StatementOf<"createStreamSource">, c: StatementContext) =>
  mutate(c, "Source", "Create", { name: s.source, type: s.type, cluster: s.cluster, config: s.config });
export const updateStreamSource = (s: StatementOf<"updateStreamSource">, c: StatementContext) =>
  mutate(c, "Source", "Update", { name: s.source, config: s.config });
export const deleteStreamSource = (s: StatementOf<"deleteStreamSource">, c: StatementContext) =>
  mutate(c, "Source", "Delete", { name: s.source });
export const describeStreamSource = (s: StatementOf<"describeStreamSource">, c: StatementContext) =>
  describe(c, "Source", s.source);

export const createStreamSink = (s: StatementOf<"createStreamSink">, c: StatementContext) =>
  mutate(c, "Sink", "Create", { name: s.sink, type: s.type, cluster: s.cluster, config: s.config });
export const updateStreamSink = (s: StatementOf<"updateStreamSink">, c: StatementContext) =>
  mutate(c, "Sink", "Update", { name: s.sink, config: s.config });
export const deleteStreamSink = (s: StatementOf<"deleteStreamSink">, c: StatementContext) =>
  mutate(c, "Sink", "Delete", { name: s.sink });
export const describeStreamSink = (s: StatementOf<"describeStreamSink">, c: StatementContext) =>
  describe(c, "Sink", s.sink);
