import { formatFqn, mergeConfigMaps, type ConfigMaps } from "@stream-registry/core";
import type { BindingObservation, ClusterTarget } from "@stream-registry/provider-api";
import { recordChange, type Tx } from "@stream-registry/store";
import { configSetOf } from "../services/config-input.ts";
import type { ServiceDeps } from "../services/deps.ts";

/** What one reconcile attempt of a binding came to. */
export type BindingOutcome =
  | { kind: "gone" }
  | { kind: "deleted" }
  | { kind: "realized"; generation: number; observation: BindingObservation | undefined }
  | { kind: "provider-missing"; provider: string };

/**
 * Brings one binding to its desired state through its cluster's provider. Level-triggered: it reads
 * the latest desired state, so a retry or a duplicate request is harmless. Provider errors
 * propagate to the reconciler, which decides between retry and FAILED.
 */
export async function reconcileBinding(
  deps: ServiceDeps,
  bindingId: string,
  signal: AbortSignal,
): Promise<BindingOutcome> {
  const { prisma } = deps.db;
  const binding = await prisma.binding.findUnique({
    where: { id: bindingId },
    include: { stream: true, cluster: true },
  });
  if (!binding) return { kind: "gone" };
  const provider = deps.providers.get(binding.cluster.provider);
  if (!provider) return { kind: "provider-missing", provider: binding.cluster.provider };
  const cluster: ClusterTarget = {
    namespace: deps.namespace,
    name: binding.cluster.name,
    config: binding.cluster.config as ConfigMaps,
  };
  const fqn = formatFqn(deps.namespace, binding.cluster.name, binding.stream.name);

  if (binding.phase === "DELETING") {
    await provider.infrastructure.deleteStreamBinding(binding.stream.name, cluster, { signal });
    await prisma.$transaction(async (tx) => {
      await tx.binding.delete({ where: { id: binding.id } });
      await recordChange(tx, {
        entityType: "binding",
        entityKey: fqn,
        action: "deleted",
        generation: binding.generation,
        actor: "reconciler",
      });
      if (binding.isDefault) await promoteNextDefault(tx, binding.streamId);
      await removeStreamIfDone(tx, binding.streamId);
    });
    return { kind: "deleted" };
  }

  const stream = configSetOf(binding.stream);
  const overrides = configSetOf(binding);
  const request = {
    streamName: binding.stream.name,
    cluster,
    configMaps: mergeConfigMaps(stream.config, overrides.config),
    producerConfig: mergeConfigMaps(stream.producerConfig, overrides.producerConfig),
    consumerConfig: mergeConfigMaps(stream.consumerConfig, overrides.consumerConfig),
  };
  const realize =
    binding.observedGeneration === null
      ? provider.infrastructure.createStreamBinding
      : provider.infrastructure.updateStreamBinding;
  const observation = (await realize.call(provider.infrastructure, request, { signal })) ?? undefined;
  // Only the generation that was realized may turn ONLINE: a newer desired state, or a delete
  // that arrived meanwhile, has its own job and must not be overwritten.
  await prisma.$transaction(async (tx) => {
    const updated = await tx.binding.updateMany({
      where: { id: binding.id, generation: binding.generation, phase: { not: "DELETING" } },
      data: {
        phase: "ONLINE",
        observedGeneration: binding.generation,
        message: observation?.message ?? null,
        statusUpdatedAt: new Date(),
      },
    });
    if (updated.count > 0 && binding.phase !== "ONLINE") {
      await recordChange(tx, {
        entityType: "binding",
        entityKey: fqn,
        action: "status",
        generation: binding.generation,
        actor: "reconciler",
        data: { phase: "ONLINE" },
      });
    }
  });
  return { kind: "realized", generation: binding.generation, observation };
}

/** When the default binding goes, the oldest remaining one becomes the default. */
async function promoteNextDefault(tx: Tx, streamId: string): Promise<void> {
  const next = await tx.binding.findFirst({
    where: { streamId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  if (next) await tx.binding.update({ where: { id: next.id }, data: { isDefault: true } });
}

/** A stream deleted with cascade goes with its last binding. */
async function removeStreamIfDone(tx: Tx, streamId: string): Promise<void> {
  const stream = await tx.stream.findUnique({
    where: { id: streamId },
    include: { _count: { select: { bindings: true } } },
  });
  if (!stream?.deleting || stream._count.bindings > 0) return;
  await tx.stream.delete({ where: { id: streamId } });
  await recordChange(tx, {
    entityType: "stream",
    entityKey: stream.name,
    action: "deleted",
    generation: stream.generation,
    actor: "reconciler",
  });
}

/** Records a failed attempt on the binding's status: PENDING while retrying, FAILED when permanent. */
export async function recordBindingFailure(
  deps: ServiceDeps,
  bindingId: string,
  message: string,
  permanent: boolean,
): Promise<void> {
  await deps.db.prisma.$transaction(async (tx) => {
    const binding = await tx.binding.findUnique({
      where: { id: bindingId },
      include: { stream: true, cluster: true },
    });
    if (!binding) return;
    // A failing delete stays DELETING: deletion is retried until the provider succeeds.
    const phase = binding.phase === "DELETING" ? "DELETING" : permanent ? "FAILED" : "PENDING";
    await tx.binding.update({
      where: { id: bindingId },
      data: { phase, message, statusUpdatedAt: new Date() },
    });
    if (phase !== binding.phase) {
      await recordChange(tx, {
        entityType: "binding",
        entityKey: formatFqn(deps.namespace, binding.cluster.name, binding.stream.name),
        action: "status",
        generation: binding.generation,
        actor: "reconciler",
        data: { phase, message },
      });
    }
  });
}
