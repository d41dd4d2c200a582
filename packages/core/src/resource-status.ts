import type { Phase } from "./phase.ts";

/**
 * A create sent for one generation of a resource's desired state: what the provider was asked to
 * make, kept until a generation is realized, since its outcome may never have reached the registry.
 */
export interface PendingCreate {
  generation: number;
  /** The part of the desired state the create sent (for a binding: its effective config maps). */
  request: Record<string, unknown>;
}

/**
 * The status block every realized resource carries beside its desired state (a binding, and every
 * kind after it): which generation is wanted, which was realized, where realizing it stands, and
 * the journal of creates sent since it was last realized (oldest first; null when unknown, for
 * rows from before the journal).
 */
export interface ResourceStatus {
  id: string;
  generation: number;
  observedGeneration: number | null;
  phase: Phase;
  pendingCreates: PendingCreate[] | null;
}
