import type { Binding, Keyring, SecretKeyRule } from "@stream-registry/core";
import { changeBinding as writeBindingChange, type BindingOverrides, type Tx } from "@stream-registry/store";
import { StaleRead } from "./optimistic.ts";

/**
 * Writes a change of a binding's desired state (store's changeBinding: new generation, phase by
 * nextPhase, job, change-log entry, the default handed on). Guarded by the generation the caller
 * read: if the binding changed meanwhile, the caller starts over.
 */
export async function changeBinding(
  tx: Tx,
  binding: Binding,
  event: "desired-changed" | "delete-requested",
  overrides: BindingOverrides,
  actor: string,
  names: { namespace: string; stream: string; cluster: string; secrets: SecretKeyRule; keyring: Keyring },
): Promise<Binding> {
  const updated = await writeBindingChange(tx, binding, event, overrides, { actor, ...names });
  if (!updated) throw new StaleRead();
  return updated;
}
