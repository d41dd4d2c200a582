import type { StatementOf } from "@stream-registry/ddl";
import { execute } from "../client/execute.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import type { Noun } from "./connector-data.ts";
import {
  namespaceFilter,
  namespaceInput,
  OWN_NAMESPACE,
  ownNamespace,
  withNamespaceColumn,
} from "./namespaced.ts";
import { fetchAll, LIST_ARGUMENTS, LIST_PAGE, LIST_VARIABLES, subtreeList } from "./pages.ts";
import { likeFilter } from "./stream-queries.ts";

interface ConnectorTypes {
  types: { name: string; class: string; version: string | null }[];
  reason: string | null;
}

/**
 * SHOW SOURCE / SINK TYPES FOR CLUSTER "c": the seed's one-column table; a cluster that offers none
 * (for Kafka: no Connect worker in its config) says why above the empty table.
 */
async function types(context: StatementContext, noun: Noun, cluster: string): Promise<Outcome> {
  const field = `${noun.toLowerCase()}Types`;
  const answer = await execute<ConnectorTypes>(context, {
    statement: `SHOW ${noun.toUpperCase()} TYPES`,
    root: "Query",
    field,
    query: `query SrctlShow${noun}Types($cluster: String!, $namespace: String) {
      ${field}(cluster: $cluster, namespace: $namespace) { types { name class version } reason } }`,
    variables: { cluster, ...namespaceInput(context) },
  });
  const { types, reason } = answer.value;
  const none = types.length === 0;
  return outcome(
    {
      type: "table",
      style: { boxed: true },
      columns: [{ key: "name", header: `${noun.toUpperCase()} TYPE` }],
      rows: types.map((t) => ({ ...t })),
      ...(none
        ? { caption: `cluster ${cluster} has no ${noun.toLowerCase()} types${reason ? `: ${reason}` : ""}` }
        : {}),
      data: { reason },
    },
    answer.warnings,
  );
}

interface ListedConnector {
  namespace: string;
  name: string;
  cluster: { name: string };
  type: string;
  state: string;
}

/** SHOW STREAM SOURCES / SINKS [LIKE "p"]: the registry's subtree, as SHOW STREAMS lists streams. */
async function list(context: StatementContext, noun: Noun, like: string | undefined): Promise<Outcome> {
  const field = `${noun.toLowerCase()}s`;
  const { filter, matches } = likeFilter(like);
  const { nodes, warnings, data } = await fetchAll<ListedConnector>(context, {
    statement: `SHOW STREAM ${noun.toUpperCase()}S`,
    root: "Query",
    field,
    query: `query SrctlShowStream${noun}s($filter: Stream${noun}Filter, ${LIST_VARIABLES}) { ${OWN_NAMESPACE}
      ${field}(filter: $filter, ${LIST_ARGUMENTS}) {
        nodes { namespace name cluster { name } type state } ${LIST_PAGE} } }`,
    variables: {
      filter: namespaceFilter(context, filter),
      ...subtreeList(context),
    },
  });
  const rows = nodes
    .filter((node) => matches(node.name))
    .map((node) => ({
      namespace: node.namespace,
      name: node.name,
      cluster: node.cluster.name,
      type: node.type,
      status: node.state,
    }));
  const columns = [
    { key: "name", header: `stream ${noun.toLowerCase()}` },
    { key: "cluster", header: "cluster" },
    { key: "type", header: "type" },
    { key: "status", header: "status" },
  ];
  return outcome(
    { type: "table", columns: withNamespaceColumn(columns, rows, ownNamespace(data)), rows },
    warnings,
  );
}

export const showConnectorTypes = (
  s: StatementOf<"showSourceTypes" | "showSinkTypes">,
  c: StatementContext,
) => types(c, s.kind === "showSourceTypes" ? "Source" : "Sink", s.cluster);
export const showConnectors = (
  s: StatementOf<"showStreamSources" | "showStreamSinks">,
  c: StatementContext,
) => list(c, s.kind === "showStreamSources" ? "Source" : "Sink", s.like);
