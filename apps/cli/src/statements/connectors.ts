import type { StatementKind, StatementOf } from "@stream-registry/ddl";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import {
  CONNECTOR_FIELDS,
  connectorObject,
  connectorLabel,
  waitForConnector,
  nameOf,
  nounOf,
  type ConnectorData,
  type Noun,
  type WaitFor,
} from "./connector-data.ts";
import { runMutation } from "./mutation.ts";
import { namespaceInput } from "./namespaced.ts";

// Stream sources and sinks: one translation serves both, as they differ only in the noun.

type Change = "Create" | "Update" | "Delete";
/** PAUSE, RESUME, STOP and RESTART: how it runs, not what it is. */
type Control = "Pause" | "Resume" | "Stop" | "Restart";

/**
 * Runs `<verb>Stream<Noun>(input: { namespace, name, ... })` and prints its STATUS, or with --wait
 * the STATUS it settled in. A control verb that has not taken effect yet says it was requested.
 */
async function mutate(
  context: StatementContext,
  noun: Noun,
  verb: Change | Control,
  name: string,
  input: Record<string, unknown> = {},
): Promise<Outcome> {
  const key = noun.toLowerCase();
  const answer = await runMutation<Record<string, ConnectorData | null>>(
    context,
    `${verb.toUpperCase()} STREAM ${noun.toUpperCase()}`,
    `${verb.toLowerCase()}Stream${noun}`,
    { ...namespaceInput(context), name, ...input },
    `${key} { ${CONNECTOR_FIELDS} }`,
    // Pause, resume and stop share one input: the source's or sink's name.
    verb === "Pause" || verb === "Resume" || verb === "Stop" ? `Stream${noun}RefInput` : undefined,
  );
  let connector = answer.value[key] ?? null;
  if (context.wait) {
    const until: WaitFor =
      verb === "Delete"
        ? { until: "gone" }
        : verb === "Restart"
          ? { until: "restarted", after: connector?.observed?.observedAt ?? null }
          : { until: "settled" };
    connector = await waitForConnector(context, noun, name, until);
  }
  const what = connectorLabel(noun, name);
  if (!connector) {
    const object = { kind: `stream${noun}`, ...namespaceInput(context), name, deleted: true };
    return outcome({ type: "mutation", message: `${what}: deleted`, object }, answer.warnings);
  }
  const control = verb !== "Create" && verb !== "Update" && verb !== "Delete";
  const pending = control && !context.wait ? ` (${verb.toLowerCase()} requested)` : "";
  return outcome(
    {
      type: "mutation",
      message: `${what}: ${connector.state}${pending}`,
      object: connectorObject(noun, connector),
    },
    answer.warnings,
  );
}

type Of<K extends string> = StatementOf<Extract<`${K}StreamSource` | `${K}StreamSink`, StatementKind>>;

export const createConnector = (s: Of<"create">, c: StatementContext) =>
  mutate(c, nounOf(s), "Create", nameOf(s), { cluster: s.cluster, type: s.type, config: s.config ?? {} });
export const updateConnector = (s: Of<"update">, c: StatementContext) =>
  mutate(c, nounOf(s), "Update", nameOf(s), { config: s.config });
export const deleteConnector = (s: Of<"delete">, c: StatementContext) =>
  mutate(c, nounOf(s), "Delete", nameOf(s));
/** PAUSE, RESUME or STOP STREAM SOURCE / SINK: the verb is the kind's first word. */
export const controlConnector = (s: Of<"pause" | "resume" | "stop">, c: StatementContext) => {
  const verb = s.kind.startsWith("pause") ? "Pause" : s.kind.startsWith("resume") ? "Resume" : "Stop";
  return mutate(c, nounOf(s), verb, nameOf(s));
};
export const restartConnector = (s: Of<"restart">, c: StatementContext) =>
  mutate(c, nounOf(s), "Restart", nameOf(s), { onlyFailed: s.onlyFailed });
