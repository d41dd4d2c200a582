import type { StatementOf } from "@stream-registry/ddl";
import type { Warning } from "../client/execute.ts";
import { NotFoundError } from "../errors.ts";
import {
  BINDING_FIELDS,
  bindingObject,
  describeBinding,
  waitForBinding,
  type BindingData,
} from "./binding-status.ts";
import { runMutation } from "./mutation.ts";
import { configInput, outcome, type Outcome, type StatementContext } from "./context.ts";
import {
  inNamespace,
  namespaceFilter,
  namespaceInput,
  OWN_NAMESPACE,
  ownNamespace,
  withNamespaceColumn,
} from "./namespaced.ts";
import { fetchAll, PAGE_INFO } from "./pages.ts";

type BindingStatement = StatementOf<"createBinding" | "updateBinding" | "deleteBinding">;

async function mutateBinding(
  s: BindingStatement,
  context: StatementContext,
  statement: string,
  field: "createBinding" | "updateBinding" | "deleteBinding",
  input: Record<string, unknown>,
): Promise<Outcome> {
  const answer = await runMutation<{ binding: BindingData }>(
    context,
    statement,
    field,
    { ...namespaceInput(context), stream: s.stream, cluster: s.cluster, ...input },
    `binding { ${BINDING_FIELDS} }`,
  );
  let binding: BindingData | null = answer.value.binding;
  if (context.wait) binding = await waitForBinding(context, s.stream, s.cluster);
  const what = describeBinding(s.stream, s.cluster);
  if (!binding) {
    return outcome({
      type: "mutation",
      message: `${what}: deleted`,
      object: {
        kind: "binding",
        fqn: answer.value.binding.fqn,
        stream: s.stream,
        cluster: s.cluster,
        deleted: true,
      },
    });
  }
  return outcome({
    type: "mutation",
    message: `${what}: ${binding.status.phase}`,
    object: bindingObject(binding),
  });
}

export const createBinding = (s: StatementOf<"createBinding">, context: StatementContext) =>
  mutateBinding(s, context, "CREATE BINDING", "createBinding", configInput(s));

export const updateBinding = (s: StatementOf<"updateBinding">, context: StatementContext) =>
  mutateBinding(s, context, "UPDATE BINDING", "updateBinding", configInput(s));

export const deleteBinding = (s: StatementOf<"deleteBinding">, context: StatementContext) =>
  mutateBinding(s, context, "DELETE BINDING", "deleteBinding", {});

interface ListedBinding {
  stream: { namespace: string; name: string };
  cluster: { name: string };
  isDefault: boolean;
  status: { phase: string };
}

/**
 * DESCRIBE BINDINGS "s": the bindings of every stream named "s" in the registry's subtree (or in
 * --namespace and below), each registry's in creation order with the default first.
 */
export async function describeBindings(
  s: StatementOf<"describeBindings">,
  context: StatementContext,
): Promise<Outcome> {
  const { nodes, warnings, data } = await fetchAll<ListedBinding>(context, {
    statement: "DESCRIBE BINDINGS",
    root: "Query",
    field: "bindings",
    query: `query SrctlDescribeBindings($filter: BindingFilter, $first: Int, $after: String) { ${OWN_NAMESPACE}
      bindings(filter: $filter, first: $first, after: $after) {
        nodes { stream { namespace name } cluster { name } isDefault status { phase } } ${PAGE_INFO} } }`,
    variables: { filter: namespaceFilter(context, { stream: s.stream }) },
  });
  // No bindings: a stream without any, or no stream at all, which DESCRIBE reports as not found
  // (unless a namespace did not answer: the stream may be there).
  if (nodes.length === 0 && warnings.length === 0)
    warnings.push(...(await checkStreamExists(s.stream, context)));
  const rows = nodes.map((b) => ({
    namespace: b.stream.namespace,
    stream: b.stream.name,
    cluster: b.cluster.name,
    default: b.isDefault,
    phase: b.status.phase,
  }));
  const columns = [
    { key: "stream", header: "stream" },
    { key: "cluster", header: "cluster" },
    { key: "default", header: "default" },
  ];
  return outcome(
    { type: "table", columns: withNamespaceColumn(columns, rows, ownNamespace(data)), rows },
    warnings,
  );
}

/**
 * Throws NotFoundError unless a stream of that name is in the subtree listed, or a namespace of it
 * did not answer (whose warnings it returns).
 */
async function checkStreamExists(name: string, context: StatementContext): Promise<Warning[]> {
  const { nodes, warnings } = await fetchAll<{ name: string }>(context, {
    statement: "DESCRIBE BINDINGS",
    root: "Query",
    field: "streams",
    query: `query SrctlStreamExists($filter: StreamFilter, $first: Int, $after: String) {
      streams(filter: $filter, first: $first, after: $after) { nodes { name } ${PAGE_INFO} } }`,
    variables: { filter: namespaceFilter(context, { nameStartsWith: name }) },
  });
  if (warnings.length === 0 && !nodes.some((stream) => stream.name === name)) {
    throw new NotFoundError(`stream "${name}" does not exist${inNamespace(context)}`);
  }
  return warnings;
}
