import type { OperationContext } from "./operation.ts";

/** A JSON value, as stored by the registry and served to API users. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * What a provider saw of a realized resource in the underlying platform; shown to users beside the
 * resource's status (a binding's `observed`), e.g. for a Kafka topic
 * `{ partitions: 6, replicationFactor: 3, configs: {...}, records: 42 }`.
 */
export interface ResourceObservation {
  /** A short human-readable summary, e.g. "topic has 10 partitions, replication 3". */
  message?: string;
  /** Provider-specific facts (partitions, configs, record counts...). */
  details?: { [key: string]: JsonValue };
}

/** One request's outcome in a batch: what its own call would have returned, or thrown. */
export type BatchOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A call's outcome as a batch reports it: its value, or what it threw. */
export function settle<T>(call: Promise<T>): Promise<BatchOutcome<T>> {
  return call.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/**
 * How a provider manages one realized kind (a binding, a stream source or sink, a replication):
 * the one shape the registry's reconcile kernel drives. The kernel owns the resource's phase
 * (PENDING, ONLINE, FAILED, DELETING), its retries and its create journal; the manager only acts
 * on the platform and says what it saw there.
 *
 * - `Request` is the resource's desired state as a create or an update sends it (with the config
 *   of the cluster it lives on, secrets opened);
 * - `Target` names an existing resource (for a binding: its stream and cluster);
 * - `Observation` is what `create`, `update` and `observe` report, plain JSON.
 *
 * Every method is idempotent: the kernel calls again after crashes and retries. A call whose
 * signal is already aborted rejects at once without touching the platform. Failures are thrown as
 * ProviderErrors: `retriable: true` for outages, `retriable: false` for a refusal (the resource
 * turns FAILED until its desired state changes). The conformance suite checks all of it, for
 * every kind a provider supports.
 */
export interface ResourceManager<
  Request,
  Observation extends ResourceObservation = ResourceObservation,
  Target = Request,
> {
  /**
   * Creates the resource; adopting an identical existing one is success. One that exists and
   * differs from the request is left as it is and refused with a ResourceConflictError.
   */
  create(request: Request, context: OperationContext): Promise<Observation | void>;
  /**
   * Optional: creates many resources (of one batch: for a binding, one cluster) with one request
   * to the platform. Each outcome, in the order of `requests`, is what `create` would have given
   * for that request alone: a refusal of one fails only that one, and a failure of the whole call
   * (the platform unreachable) fails each with an error naming it. Anything thrown fails them all
   * alike. Without it the registry makes one call each.
   */
  createMany?(
    requests: readonly Request[],
    context: OperationContext,
  ): Promise<BatchOutcome<Observation | void>[]>;
  /** Brings an existing resource to the request (creating it again if it vanished). */
  update(request: Request, context: OperationContext): Promise<Observation | void>;
  /** The resource as it is now on the platform; null when it does not exist there. */
  observe(target: Target, context: OperationContext): Promise<Observation | null>;
  /** Deletes the resource; deleting one that is already gone is success. */
  remove(target: Target, context: OperationContext): Promise<void>;
  /**
   * Optional: deletes many resources with as few requests to the platform as it can, each outcome
   * (in order) what `remove` would have given for that one alone: one already gone is success.
   */
  removeMany?(targets: readonly Target[], context: OperationContext): Promise<BatchOutcome<void>[]>;
}

/** Every method a ResourceManager must have: what the registry and the conformance suite check. */
export const RESOURCE_MANAGER_METHODS = [
  "create",
  "update",
  "observe",
  "remove",
] as const satisfies readonly (keyof ResourceManager<unknown>)[];
