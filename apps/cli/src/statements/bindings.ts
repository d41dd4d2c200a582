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
import { isPartial } from "./index-lag.ts";
import { fetchAll, LIST_ARGUMENTS, LIST_PAGE, LIST_VARIABLES, subtreeList } from "./pages.ts";
import { BINDING_FLOW, flowTables, hasBindingFlow, type BindingFlowData } from "./binding-flow.ts";

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
  flow?: BindingFlowData | null;
}

/**
 * DESCRIBE BINDINGS "s": the bindings of every stream named "s" in the registry's subtree (or in
 * --namespace and below), each registry's in creation order with the default first; then what
 * was flowing through them at the registry's last poll.
 */
export async function describeBindings(
  s: StatementOf<"describeBindings">,
  context: StatementContext,
): Promise<Outcome> {
  const flow = (await hasBindingFlow(context)) ? BINDING_FLOW : "";
  const { nodes, warnings, data } = await fetchAll<ListedBinding>(context, {
    statement: "DESCRIBE BINDINGS",
    root: "Query",
    field: "bindings",
    query: `query SrctlDescribeBindings($filter: BindingFilter, ${LIST_VARIABLES}) { ${OWN_NAMESPACE}
      bindings(filter: $filter, ${LIST_ARGUMENTS}) {
        nodes { stream { namespace name } cluster { name } isDefault status { phase } ${flow} } ${LIST_PAGE} } }`,
    variables: { filter: namespaceFilter(context, { stream: s.stream }), ...subtreeList(context) },
  });
  // No bindings: a stream without any, or no stream at all, which DESCRIBE reports as not found
  // (unless a namespace did not answer: the stream may be there).
  if (nodes.length === 0 && !warnings.some(isPartial)) {
    // Its lag warnings name the namespaces the bindings' did: each once.
    const named = new Set(warnings.map((w) => `${w.code} ${w.namespace}`));
    const more = await checkStreamExists(s.stream, context);
    warnings.push(...more.filter((w) => !named.has(`${w.code} ${w.namespace}`)));
  }
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
  const more = flowTables(nodes);
  return outcome(
    {
      type: "table",
      columns: withNamespaceColumn(columns, rows, ownNamespace(data)),
      rows,
      ...(more.length > 0 ? { more } : {}),
    },
    warnings,
  );
}

/**
 * Throws NotFoundError unless a stream of that name is in the subtree listed, or a namespace of it
 * did not answer (whose warnings it returns).
 */
async function checkStreamExists(name: string, context: StatementContext): Promise<Warning[]> {
  const { nodes, warnings, indexed } = await fetchAll<{ name: string }>(context, {
    statement: "DESCRIBE BINDINGS",
    root: "Query",
    field: "streams",
    query: `query SrctlStreamExists($filter: StreamFilter, ${LIST_VARIABLES}) {
      streams(filter: $filter, ${LIST_ARGUMENTS}) { nodes { name } ${LIST_PAGE} } }`,
    variables: { filter: namespaceFilter(context, { nameStartsWith: name }), ...subtreeList(context) },
  });
  if (!warnings.some(isPartial) && !nodes.some((stream) => stream.name === name)) {
    // A stream created a moment ago below the registry may not be in its index yet.
    const asOf =
      indexed && context.consistency === "index"
        ? " (as far as the registry's index knows; --consistency live asks every registry)"
        : "";
    throw new NotFoundError(`stream "${name}" does not exist${inNamespace(context)}${asOf}`);
  }
  return warnings;
}
