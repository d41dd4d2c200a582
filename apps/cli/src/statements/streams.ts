import type { StatementOf } from "@stream-registry/ddl";
import { execute } from "../client/execute.ts";
import { UserErrorsError } from "../errors.ts";
import { waitUntil } from "../wait.ts";
import { waitForBinding } from "./binding-status.ts";
import { runMutation } from "./mutation.ts";
import { configInput, outcome, type Outcome, type StatementContext } from "./context.ts";
import { namespaceInput } from "./namespaced.ts";

interface StreamData {
  namespace: string;
  name: string;
  generation: number;
  deleting: boolean;
  bindings: { cluster: { name: string }; status: { phase: string } }[];
}

const STREAM_FIELDS = "namespace name generation deleting bindings { cluster { name } status { phase } }";

function streamObject(stream: StreamData): Record<string, unknown> {
  return {
    kind: "stream",
    namespace: stream.namespace,
    name: stream.name,
    generation: stream.generation,
    deleting: stream.deleting,
  };
}

export async function createStream(
  s: StatementOf<"createStream">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<{ stream: StreamData }>(
    context,
    "CREATE STREAM",
    "createStream",
    { ...namespaceInput(context), name: s.stream, ...configInput(s) },
    `stream { ${STREAM_FIELDS} }`,
  );
  const { stream } = answer.value;
  return outcome({
    type: "mutation",
    message: `stream ${stream.name}: created`,
    object: streamObject(stream),
  });
}

export async function updateStream(
  s: StatementOf<"updateStream">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<{ stream: StreamData }>(
    context,
    "UPDATE STREAM",
    "updateStream",
    { ...namespaceInput(context), name: s.stream, ...configInput(s) },
    `stream { ${STREAM_FIELDS} }`,
  );
  const { stream } = answer.value;
  // The stream's bindings are realized again with the new config (they turn PENDING).
  const pending = stream.bindings.filter((b) => b.status.phase === "PENDING");
  for (const binding of pending) await waitForBinding(context, stream.name, binding.cluster.name);
  const bindings = stream.bindings.length;
  return outcome({
    type: "mutation",
    message: `stream ${stream.name}: updated (generation ${stream.generation}, ${bindings} binding${bindings === 1 ? "" : "s"} ${context.wait ? "realized" : "PENDING"})`,
    object: streamObject(stream),
  });
}

export async function deleteStream(
  s: StatementOf<"deleteStream">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<{ deleted: boolean; stream: StreamData }>(
    context,
    "DELETE STREAM",
    "deleteStream",
    { ...namespaceInput(context), name: s.stream, cascade: s.cascade },
    `deleted stream { ${STREAM_FIELDS} }`,
  ).catch((error: unknown) => {
    throw inSrctlWords(error, s.stream);
  });
  const { deleted, stream } = answer.value;
  if (!deleted && context.wait) {
    await waitUntil(context.wait, `stream ${stream.name}`, async () => {
      const now = await execute<StreamData | null>(context, {
        statement: "stream status",
        root: "Query",
        field: "stream",
        query: `query SrctlStream($name: String!, $namespace: String) {
          stream(name: $name, namespace: $namespace) { ${STREAM_FIELDS} } }`,
        variables: { name: stream.name, ...namespaceInput(context) },
      });
      return now.value
        ? { state: "waiting", detail: `DELETING (${now.value.bindings.length} binding(s) left)` }
        : { state: "done" };
    });
  }
  const gone = deleted || context.wait !== undefined;
  return outcome({
    type: "mutation",
    message: gone
      ? `stream ${stream.name}: deleted`
      : `stream ${stream.name}: DELETING (${stream.bindings.length} binding(s) being deleted)`,
    object: { ...streamObject(stream), deleted: gone },
  });
}

/** The registry's hint names the GraphQL input (`cascade: true`); srctl's word for it is CASCADE. */
function inSrctlWords(error: unknown, stream: string): unknown {
  if (!(error instanceof UserErrorsError)) return error;
  return new UserErrorsError(
    error.userErrors.map((e) => ({
      ...e,
      message: e.message.replace(
        "set cascade: true",
        `add CASCADE: DELETE STREAM ${JSON.stringify(stream)} CASCADE`,
      ),
    })),
  );
}
