import type { BindingObservation } from "@stream-registry/provider-api";
import type { Prisma, PrismaClient, Tx } from "@stream-registry/store";

/** Stores what the provider saw of a binding, replacing the previous observation. */
export async function saveObservation(
  db: Tx | PrismaClient,
  bindingId: string,
  observation: BindingObservation,
  observedAt: Date = new Date(),
): Promise<void> {
  const data = {
    message: observation.message ?? null,
    details: (observation.details ?? {}) as Prisma.InputJsonValue,
    observedAt,
  };
  await db.bindingObservation.upsert({
    where: { bindingId },
    create: { bindingId, ...data },
    update: data,
  });
}
