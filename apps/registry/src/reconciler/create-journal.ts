import {
  isResourceConflictError,
  type BindingObservation,
  type BindingRequest,
  type ClusterTarget,
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

/** The desired state moved on while this attempt ran: the newer state has its own job. */
export class SupersededAttempt extends Error {
  constructor(generation: number) {
    super(`generation ${generation} was superseded before its create was sent`);
    this.name = "SupersededAttempt";
  }
}

/** The journal of a binding; null when unknown (a row from before the journal). */
function journalOf(binding: Binding): PendingCreate[] | null {
  return binding.pendingCreates as PendingCreate[] | null;
}

/**
 * Creates a binding that has never been realized, journaling the request first. If a crash or a
 * timeout hid whether an older generation's create was carried out, and the resource exists, it
 * is adopted as the newest journaled generation the provider accepts it for (a provider adopts
 * only what matches the request), that generation is recorded as realized, and the resource is
 * updated to the current desired state. A resource no journaled create accounts for is treated
 * like any existing one. A create refused with ResourceConflictError made nothing: it leaves the
 * journal, as does an older one the existing resource does not match.
 */
export async function createThroughJournal(
  prisma: PrismaClient,
  binding: Binding,
  infrastructure: StreamInfrastructureManager,
  request: BindingRequest,
  signal: AbortSignal,
): Promise<BindingObservation | void> {
  const journal = journalOf(binding);
  const older = (journal ?? []).filter((entry) => entry.generation !== binding.generation).reverse();
  const adoptOlder = async (): Promise<boolean> => {
    const adopted = await adoptedEntry(prisma, binding.id, older, infrastructure, request, signal);
    if (adopted === undefined) return false;
    await prisma.binding.updateMany({
      where: { id: binding.id, observedGeneration: null },
      data: { observedGeneration: adopted.generation, pendingCreates: [] },
    });
    return true;
  };

  if (older.length > 0 && (await exists(infrastructure, request.streamName, request.cluster, signal))) {
    if (await adoptOlder()) return infrastructure.updateStreamBinding(request, { signal });
  }
  if (!journal?.some((entry) => entry.generation === binding.generation)) {
    await append(prisma, binding, request);
  }
  try {
    return await infrastructure.createStreamBinding(request, { signal });
  } catch (error) {
    if (!isResourceConflictError(error)) throw error;
    // An older create may have landed after the look above (a controller applying a timed-out request).
    if (older.length > 0 && (await adoptOlder()))
      return infrastructure.updateStreamBinding(request, { signal });
    await forget(prisma, binding.id, [binding.generation]);
    throw error;
  }
}

/**
 * Whether deleting a binding must reach the platform: yes once it was realized or when its journal
 * is unknown; otherwise only if its resource exists and is what one of its journaled creates made.
 * A resource of that name that no create of the registry's accounts for belongs to someone else.
 */
export async function mayHaveMadeResource(
  prisma: PrismaClient,
  binding: Binding,
  infrastructure: StreamInfrastructureManager,
  request: Pick<BindingRequest, "streamName" | "cluster">,
  signal: AbortSignal,
): Promise<boolean> {
  const journal = journalOf(binding);
  if (binding.observedGeneration !== null || journal === null) return true;
  if (journal.length === 0) return false;
  if (!(await exists(infrastructure, request.streamName, request.cluster, signal))) return false;
  const newestFirst = [...journal].reverse();
  const full: BindingRequest = { ...request, ...newestFirst[0]!.request };
  return (await adoptedEntry(prisma, binding.id, newestFirst, infrastructure, full, signal)) !== undefined;
}

/**
 * The newest of `entries` whose create the provider accepts for the existing resource (adopting
 * it). Entries it refuses as conflicting leave the journal: the resource is not what they would
 * have made, and never will be.
 */
async function adoptedEntry(
  prisma: PrismaClient,
  bindingId: string,
  entries: PendingCreate[],
  infrastructure: StreamInfrastructureManager,
  request: BindingRequest,
  signal: AbortSignal,
): Promise<PendingCreate | undefined> {
  const conflicting: number[] = [];
  try {
    for (const entry of entries) {
      try {
        await infrastructure.createStreamBinding({ ...request, ...entry.request }, { signal });
        return entry;
      } catch (error) {
        if (!isResourceConflictError(error)) throw error;
        conflicting.push(entry.generation);
      }
    }
    return undefined;
  } finally {
    if (conflicting.length > 0) await forget(prisma, bindingId, conflicting);
  }
}

async function exists(
  infrastructure: StreamInfrastructureManager,
  streamName: string,
  cluster: ClusterTarget,
  signal: AbortSignal,
): Promise<boolean> {
  return (await infrastructure.observeStreamBinding(streamName, cluster, { signal })) !== null;
}

/** Records the create about to be sent; refuses if the binding's desired state moved meanwhile. */
async function append(prisma: PrismaClient, binding: Binding, request: BindingRequest): Promise<void> {
  const entry: PendingCreate = {
    generation: binding.generation,
    request: {
      configMaps: request.configMaps,
      producerConfig: request.producerConfig,
      consumerConfig: request.consumerConfig,
    },
  };
  // An unknown (NULL) journal stays unknown: what was sent before it existed cannot be told.
  const appended = await prisma.$executeRaw`
    UPDATE binding
      SET pending_creates = pending_creates || jsonb_build_array(${JSON.stringify(entry)}::jsonb)
      WHERE id = ${binding.id}::uuid AND generation = ${binding.generation}
        AND observed_generation IS NULL`;
  if (appended === 0) throw new SupersededAttempt(binding.generation);
}

/** Takes creates known to have made nothing out of the journal, keeping the others in order. */
async function forget(prisma: PrismaClient, bindingId: string, generations: number[]): Promise<void> {
  await prisma.$executeRaw`
    UPDATE binding
      SET pending_creates = (
        SELECT COALESCE(jsonb_agg(entry ORDER BY position), '[]'::jsonb)
          FROM jsonb_array_elements(pending_creates) WITH ORDINALITY AS journal(entry, position)
          WHERE NOT ((entry->>'generation')::int = ANY(${generations}::int[])))
      WHERE id = ${bindingId}::uuid AND pending_creates IS NOT NULL`;
}
