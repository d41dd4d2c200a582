import type { ConfigMaps } from "@stream-registry/core";

/** The cluster a resource lives on, as declared in the registry (providers keep no state of their own). */
export interface ClusterTarget {
  namespace: string;
  name: string;
  /** The cluster's config maps, secrets included: what a provider needs to connect. */
  config: ConfigMaps;
}

/** Everything a provider call may use besides its arguments. */
export interface OperationContext {
  /**
   * Aborted when the registry shuts down or gives up on the call. A call whose signal is already
   * aborted rejects at once without touching the platform (the conformance suite checks it).
   */
  signal: AbortSignal;
}
