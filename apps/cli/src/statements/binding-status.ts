import { execute } from "../client/execute.ts";
import type { Probe } from "../wait.ts";
import { waitUntil } from "../wait.ts";
import { STATUS, type StatementContext } from "./context.ts";
import { namespaceInput } from "./namespaced.ts";

export interface StatusData {
  phase: "PENDING" | "ONLINE" | "FAILED" | "DELETING";
  generation: number;
  observedGeneration: number | null;
  message: string | null;
}

export interface BindingData {
  fqn: string;
  isDefault: boolean;
  stream: { name: string };
  cluster: { name: string };
  status: StatusData;
}

export const BINDING_FIELDS = `fqn isDefault stream { name } cluster { name } ${STATUS}`;

const BINDING = `query SrctlBinding($stream: String!, $cluster: String!, $namespace: String) {
  binding(stream: $stream, cluster: $cluster, namespace: $namespace) { ${BINDING_FIELDS} }
}`;

export function describeBinding(stream: string, cluster: string): string {
  return `binding ${stream} on ${cluster}`;
}

export function bindingObject(binding: BindingData): Record<string, unknown> {
  return {
    kind: "binding",
    fqn: binding.fqn,
    stream: binding.stream.name,
    cluster: binding.cluster.name,
    isDefault: binding.isDefault,
    ...binding.status,
  };
}

export async function fetchBinding(
  context: StatementContext,
  stream: string,
  cluster: string,
): Promise<BindingData | null> {
  const answer = await execute<BindingData | null>(context, {
    statement: "binding status",
    root: "Query",
    field: "binding",
    query: BINDING,
    variables: { stream, cluster, ...namespaceInput(context) },
  });
  return answer.value;
}

/**
 * Waits until a binding settles: ONLINE at its latest generation, or gone when it was being
 * deleted. FAILED ends the wait with an error. Returns the binding as last seen (null if gone).
 */
export async function waitForBinding(
  context: StatementContext,
  stream: string,
  cluster: string,
): Promise<BindingData | null> {
  if (!context.wait) return null;
  let last: BindingData | null = null;
  await waitUntil(context.wait, describeBinding(stream, cluster), async (): Promise<Probe> => {
    last = await fetchBinding(context, stream, cluster);
    return settled(last);
  });
  return last;
}

function settled(binding: BindingData | null): Probe {
  if (!binding) return { state: "done" };
  const { phase, generation, observedGeneration, message } = binding.status;
  const detail = message ? `${phase} (${message})` : phase;
  if (phase === "FAILED") return { state: "failed", detail };
  if (phase === "ONLINE" && observedGeneration === generation) return { state: "done" };
  return { state: "waiting", detail };
}
