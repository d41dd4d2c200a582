import { formatFqn, Phase } from "@stream-registry/core";
import type { BindingObservation } from "@stream-registry/provider-api";
import {
  findBindingToReconcile,
  recordFailure,
  recordRealized,
  removeDeletedBinding,
  writeTransaction,
} from "@stream-registry/store";
import { createThroughJournal, mayHaveMadeResource, SupersededAttempt } from "./create-journal.ts";
import { registryOnlyProvider } from "../providers/registry-only.ts";
import { clusterTarget } from "../providers/cluster-target.ts";
import { configSetOf, effectiveConfigSet } from "../services/config-input.ts";
import type { ServiceDeps } from "../services/deps.ts";

type ReconcileDeps = Pick<ServiceDeps, "db" | "providers" | "namespace">;

/** What one reconcile attempt of a binding came to. */
export type BindingOutcome =
  | { kind: "gone" }
  | { kind: "deleted" }
  /** The desired state moved before anything was sent; the newer state has its own job. */
  | { kind: "superseded" }
  | { kind: "realized"; observation: BindingObservation | undefined }
  | { kind: "provider-missing"; provider: string };

/** The desired state an attempt worked from: a failure is recorded against it, not a newer one. */
export interface Attempt {
  bindingId: string;
  generation?: number;
}

/**
 * Brings one binding to its desired state through its cluster's provider. Level-triggered: it reads
 * the latest desired state, so a retry or a duplicate request is harmless. Provider errors
 * propagate to the reconciler, which decides between retry and FAILED.
 */
export async function reconcileBinding(
  deps: ReconcileDeps,
  attempt: Attempt,
  signal: AbortSignal,
): Promise<BindingOutcome> {
  const { prisma } = deps.db;
  const binding = await findBindingToReconcile(prisma, attempt.bindingId);
  if (!binding) return { kind: "gone" };
  attempt.generation = binding.generation;
  const provider = deps.providers.get(binding.cluster.provider);
  if (!provider) return { kind: "provider-missing", provider: binding.cluster.provider };
  const cluster = clusterTarget(deps.namespace, binding.cluster);
  const fqn = formatFqn(deps.namespace, binding.cluster.name, binding.stream.name);

  if (binding.phase === Phase.DELETING) {
    const target = { streamName: binding.stream.name, cluster };
    if (await mayHaveMadeResource(prisma, binding, provider.infrastructure, target, signal)) {
      await provider.infrastructure.deleteStreamBinding(binding.stream.name, cluster, { signal });
    }
    await writeTransaction(prisma, (tx) => removeDeletedBinding(tx, binding, fqn));
    return { kind: "deleted" };
  }

  const effective = effectiveConfigSet(configSetOf(binding.stream), configSetOf(binding));
  const request = {
    streamName: binding.stream.name,
    cluster,
    configMaps: effective.config,
    producerConfig: effective.producerConfig,
    consumerConfig: effective.consumerConfig,
  };
  let realized: BindingObservation | void;
  try {
    realized =
      binding.observedGeneration === null
        ? provider.kind === registryOnlyProvider.kind
          ? await provider.infrastructure.createStreamBinding(request, { signal })
          : await createThroughJournal(prisma, binding, provider.infrastructure, request, signal)
        : await provider.infrastructure.updateStreamBinding(request, { signal });
  } catch (error) {
    if (error instanceof SupersededAttempt) return { kind: "superseded" };
    throw error;
  }
  const observation = realized ?? undefined;
  // Only the generation that was realized may turn ONLINE: a newer desired state, or a delete
  // that arrived meanwhile, has its own job and must not be overwritten.
  await writeTransaction(prisma, (tx) => recordRealized(tx, binding, observation, fqn));
  return { kind: "realized", observation };
}

/** A failed attempt: the provider's words, and what to show while a retry is pending. */
export interface Failure {
  message: string;
  retryMessage: string;
  /** The provider said trying again cannot help. */
  permanent: boolean;
}

/**
 * Records a failed attempt on the binding's status, unless its desired state changed since the
 * attempt read it (that newer state has its own job). A permanent failure makes the binding
 * FAILED, except while it is being deleted: a deletion is never abandoned. Says whether the job
 * is finished ("failed") or must be tried again ("retry").
 */
export async function recordBindingFailure(
  deps: ReconcileDeps,
  attempt: Attempt,
  failure: Failure,
): Promise<"failed" | "retry"> {
  return writeTransaction(deps.db.prisma, (tx) =>
    recordFailure(tx, attempt, failure, ({ cluster, stream }) => formatFqn(deps.namespace, cluster, stream)),
  );
}
