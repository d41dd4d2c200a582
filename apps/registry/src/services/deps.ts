import type { Keyring } from "@stream-registry/core";
import type { Database } from "@stream-registry/store";
import type { Access } from "@stream-registry/core";
import type { ProviderRegistry } from "../providers/provider-registry.ts";

/** What the services share: built once per process. */
export interface ServiceDeps {
  db: Database;
  providers: ProviderRegistry;
  namespace: string;
  /** The keys secrets are sealed with at rest; only writes and what connects to a cluster use them. */
  keyring: Keyring;
  /** Tells the reconciler that jobs were enqueued (after the transaction committed). */
  wakeReconciler: () => void;
  /** Aborted when the registry begins to stop: a read that waits (a long poll) gives up. */
  stopping?: AbortSignal;
}

/** Who asked for a change: recorded in the change log. */
export interface Actor {
  actor: string;
}

/**
 * Who asks for a change and what it may do (graphql/authorize.ts makes one per request): every
 * service method that changes something checks `access` before it reads or writes anything.
 */
export interface Caller extends Actor {
  access: Access;
}
