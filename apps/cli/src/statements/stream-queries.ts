import type { StatementOf } from "@stream-registry/ddl";
import { subjectsTable, SUBJECTS_SELECTION, type StreamSubjects } from "./stream-subjects.ts";
import { execute } from "../client/execute.ts";
import { NotFoundError } from "../errors.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import {
  inNamespace,
  namespaceFilter,
  namespaceInput,
  OWN_NAMESPACE,
  ownNamespace,
  withNamespaceColumn,
} from "./namespaced.ts";
import { fetchAll, LIST_ARGUMENTS, LIST_PAGE, LIST_VARIABLES, subtreeList } from "./pages.ts";

interface ListedStream {
  namespace: string;
  name: string;
  bindings: { cluster: { name: string } }[];
  defaultBinding: { cluster: { name: string } } | null;
}

export async function showStreams(
  s: StatementOf<"showStreams">,
  context: StatementContext,
): Promise<Outcome> {
  const like = likeFilter(s.like);
  const { nodes, warnings, data } = await fetchAll<ListedStream>(context, {
    statement: "SHOW STREAMS",
    root: "Query",
    field: "streams",
    query: `query SrctlShowStreams($filter: StreamFilter, ${LIST_VARIABLES}) { ${OWN_NAMESPACE}
      streams(filter: $filter, ${LIST_ARGUMENTS}) {
        nodes { namespace name bindings { cluster { name } } defaultBinding { cluster { name } } } ${LIST_PAGE} } }`,
    variables: {
      filter: namespaceFilter(context, like.filter),
      ...subtreeList(context),
    },
  });
  const rows = nodes
    .filter((stream) => like.matches(stream.name))
    .map((stream) => ({
      namespace: stream.namespace,
      stream: stream.name,
      bindings: stream.bindings.length,
      defaultCluster: stream.defaultBinding?.cluster.name ?? null,
    }));
  const columns = [
    { key: "stream", header: "stream" },
    { key: "bindings", header: "bindings", align: "right" as const },
    { key: "defaultCluster", header: "default cluster" },
  ];
  return outcome(
    { type: "table", columns: withNamespaceColumn(columns, rows, ownNamespace(data)), rows },
    warnings,
  );
}

/**
 * SHOW ... [LIKE "p"]: the registry filters by the pattern's literal prefix (`filter`, for the
 * list's filter input); `matches` applies the full pattern to what it returns.
 */
export function likeFilter(like: string | undefined): {
  filter: { nameStartsWith?: string };
  matches: (name: string) => boolean;
} {
  if (like === undefined) return { filter: {}, matches: () => true };
  const prefix = /^[^%_]*/.exec(like)?.[0];
  return { filter: prefix ? { nameStartsWith: prefix } : {}, matches: likeMatcher(like) };
}

/** SQL LIKE: `%` is any run of characters, `_` exactly one. */
export function likeMatcher(pattern: string): (name: string) => boolean {
  const body = [...pattern]
    .map((c) => (c === "%" ? ".*" : c === "_" ? "." : c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")))
    .join("");
  const regex = new RegExp(`^${body}$`, "s");
  return (name) => regex.test(name);
}

interface DescribedStream extends Partial<StreamSubjects> {
  name: string;
  config: Record<string, Record<string, unknown>>;
  producerConfig: Record<string, Record<string, unknown>>;
  consumerConfig: Record<string, Record<string, unknown>>;
}

export async function describeStream(
  s: StatementOf<"describeStream">,
  context: StatementContext,
): Promise<Outcome> {
  // A registry without schemas (older than issue 12) is still described, without its subjects.
  const schemas = (await context.capabilities.has("Query", "checkSchemaCompatibility")) !== false;
  const answer = await execute<DescribedStream | null>(context, {
    statement: "DESCRIBE STREAM",
    root: "Query",
    field: "stream",
    query: `query SrctlDescribeStream($name: String!, $namespace: String) {
      stream(name: $name, namespace: $namespace) { name config producerConfig consumerConfig
        ${schemas ? SUBJECTS_SELECTION : ""} } }`,
    variables: { name: s.stream, ...namespaceInput(context) },
  });
  const stream = answer.value;
  if (!stream) throw new NotFoundError(`stream "${s.stream}" does not exist${inNamespace(context)}`);
  const rows = (["config", "producerConfig", "consumerConfig"] as const).flatMap((scope) =>
    Object.entries(stream[scope]).flatMap(([map, entries]) =>
      Object.entries(entries).map(([key, value]) => ({ scope: scopeLabel[scope], map, key, value })),
    ),
  );
  // The registry keeps maps as JSON objects, whose key order is not the order they were written in.
  rows.sort(
    (a, b) => scopeOrder(a.scope) - scopeOrder(b.scope) || compare(a.map, b.map) || compare(a.key, b.key),
  );
  return outcome(
    {
      type: "table",
      columns: [
        { key: "scope", header: "config" },
        { key: "map", header: "map" },
        { key: "key", header: "key" },
        { key: "value", header: "value" },
      ],
      rows,
      ...(schemas ? { more: [subjectsTable(stream)].filter((t) => t.rows.length > 0) } : {}),
    },
    answer.warnings,
  );
}

const scopeLabel = { config: "stream", producerConfig: "producer", consumerConfig: "consumer" } as const;
const scopeOrder = (scope: string) => Object.values(scopeLabel).indexOf(scope as never);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
