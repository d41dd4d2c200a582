import type { StatementOf } from "@stream-registry/ddl";
import { execute } from "../client/execute.ts";
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
    { stream: s.stream, cluster: s.cluster, ...input },
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

interface StreamBindings {
  name: string;
  bindings: { cluster: { name: string }; isDefault: boolean; status: { phase: string } }[];
}

export async function describeBindings(
  s: StatementOf<"describeBindings">,
  context: StatementContext,
): Promise<Outcome> {
  // Stream.bindings is in creation order with the default first, and a missing stream is null.
  const answer = await execute<StreamBindings | null>(context, {
    statement: "DESCRIBE BINDINGS",
    root: "Query",
    field: "stream",
    query: `query SrctlDescribeBindings($name: String!) {
      stream(name: $name) { name bindings { cluster { name } isDefault status { phase } } } }`,
    variables: { name: s.stream },
  });
  const stream = answer.value;
  if (!stream) throw new NotFoundError(`stream "${s.stream}" does not exist`);
  return outcome(
    {
      type: "table",
      columns: [
        { key: "stream", header: "stream" },
        { key: "cluster", header: "cluster" },
        { key: "default", header: "default" },
      ],
      rows: stream.bindings.map((b) => ({
        stream: stream.name,
        cluster: b.cluster.name,
        default: b.isDefault,
        phase: b.status.phase,
      })),
    },
    answer.warnings,
  );
}
