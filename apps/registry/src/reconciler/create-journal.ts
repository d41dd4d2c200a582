import {
  ProviderError,
  type BindingObservation,
  type BindingRequest,
  type StreamInfrastructureManager,
} from "@stream-registry/provider-api";
import type { Binding, PrismaClient } from "@stream-registry/store";

/**
 * A create sent for one generation of a binding's desired state, kept in `binding.pending_creates`
 * (oldest first) until a generation is realized: its outcome may never have reached the registry.
 */
interface PendingCreate {
  generation: number;
  request: Pick<BindingRequest, "configMaps" | "producerConfig" | "consumerConfig">;
}

/** The desired state moved on while this attempt ran: the newer generation has its own job. */
export class SupersededAttempt extends Error {
  constructor(generation: number) {
    super(`generation ${generation} was superseded before its create was sent`);
    this.name = "SupersededAttempt";
  }
}

/**
 * Whether deleting a never-realized binding must reach the platform: not when every create sent
 * for it was refused (nothing was made, and a resource of that name belongs to someone else).
 */
export function mayHaveBeenCreated(binding: Binding): boolean {
  if (binding.observedGeneration !== null) return true;
  const pending = binding.pendingCreates as PendingCreate[] | null;
  // NULL: a row from before the journal, which cannot tell.
  return pending === null || pending.length > 0;
}

/**
 * Creates a binding that has never been realized, journaling the request first. If a crash or a
 * timeout hid whether an older generation's create was carried out, and the resource exists, it
 * is adopted as the newest generation whose create the provider accepts for it (a provider adopts
 * only what matches the request), that generation is recorded as realized, and the resource is
 * updated to the current desired state. A resource no journaled create accounts for is treated
 * like any existing one. A create the provider refuses made nothing, so it leaves the journal, as
 * does one the existing resource does not match.
 */
export async function createThroughJournal(
  prisma: PrismaClient,
  binding: Binding,
  infrastructure: StreamInfrastructureManager,
  request: BindingRequest,
  signal: AbortSignal,
): Promise<BindingObservation | void> {
  const pending = (binding.pendingCreates as PendingCreate[] | null) ?? [];
  const older = pending.filter((entry) => entry.generation !== binding.generation).reverse();
  if (
    older.length > 0 &&
    (await infrastructure.observeStreamBinding(request.streamName, request.cluster, { signal }))
  ) {
    for (const entry of older) {
      if (!(await accepts(infrastructure, { ...request, ...entry.request }, signal))) {
        // The resource exists and is not what that create would have made: it never will be.
        await forget(prisma, binding.id, entry.generation);
        continue;
      }
      await prisma.binding.updateMany({
        where: { id: binding.id, observedGeneration: null },
        data: { observedGeneration: entry.generation, pendingCreates: [] },
      });
      return infrastructure.updateStreamBinding(request, { signal });
    }
  }
  if (!pending.some((entry) => entry.generation === binding.generation)) {
    await journal(prisma, binding, request);
  }
  try {
    return await infrastructure.createStreamBinding(request, { signal });
  } catch (error) {
    if (isRefusal(error)) await forget(prisma, binding.id, binding.generation);
    throw error;
  }
}

/** Records the create about to be sent; refuses if the binding's desired state moved meanwhile. */
async function journal(prisma: PrismaClient, binding: Binding, request: BindingRequest): Promise<void> {
  const entry: PendingCreate = {
    generation: binding.generation,
    request: {
      configMaps: request.configMaps,
      producerConfig: request.producerConfig,
      consumerConfig: request.consumerConfig,
    },
  };
  const appended = await prisma.$executeRaw`
    UPDATE binding
      SET pending_creates = COALESCE(pending_creates, '[]'::jsonb) || jsonb_build_array(${JSON.stringify(entry)}::jsonb)
      WHERE id = ${binding.id}::uuid AND generation = ${binding.generation} AND observed_generation IS NULL`;
  if (appended === 0) throw new SupersededAttempt(binding.generation);
}

/** Takes a refused create out of the journal. */
async function forget(prisma: PrismaClient, bindingId: string, generation: number): Promise<void> {
  await prisma.$executeRaw`
    UPDATE binding
      SET pending_creates = (
        SELECT COALESCE(jsonb_agg(entry), '[]'::jsonb) FROM jsonb_array_elements(pending_creates) entry
        WHERE (entry->>'generation')::int <> ${generation})
      WHERE id = ${bindingId}::uuid AND pending_creates IS NOT NULL`;
}

/** Whether the provider takes the existing resource as the result of `request`. */
async function accepts(
  infrastructure: StreamInfrastructureManager,
  request: BindingRequest,
  signal: AbortSignal,
): Promise<boolean> {
  try {
    await infrastructure.createStreamBinding(request, { signal });
    return true;
  } catch (error) {
    if (isRefusal(error)) return false;
    throw error;
  }
}

function isRefusal(error: unknown): boolean {
  return error instanceof ProviderError && !error.retriable;
}
