import type { StatementOf } from "@stream-registry/ddl";
import { execute } from "../client/execute.ts";
import { runMutation } from "./mutation.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";

export async function showNamespace(
  _s: StatementOf<"showNamespace">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await execute<{ path: string }>(context, {
    statement: "SHOW NAMESPACE",
    root: "Query",
    field: "namespace",
    query: "query SrctlShowNamespace { namespace { path } }",
  });
  // The seed prints the namespace as a quoted string: "/us-aus1-dc01".
  return outcome(
    { type: "value", text: JSON.stringify(answer.value.path), data: { namespace: answer.value.path } },
    answer.warnings,
  );
}

export async function declareDefaultNamespace(
  s: StatementOf<"declareDefaultNamespace">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<{ namespace: { path: string } | null }>(
    context,
    "DECLARE DEFAULT NAMESPACE",
    "declareDefaultNamespace",
    { name: s.namespace },
    `namespace { path }`,
  );
  const path = answer.value.namespace?.path ?? s.namespace;
  return outcome({
    type: "mutation",
    message: `namespace ${path}: declared`,
    object: { kind: "namespace", path },
  });
}
