import type { Prisma } from "./generated/prisma/client.ts";
import type { Tx } from "./transaction.ts";

export interface ChangeRecord {
  entityType: "cluster" | "stream" | "binding";
  entityKey: string;
  action: "created" | "updated" | "deleted" | "delete-requested" | "status" | "became-default";
  generation: number;
  actor: string;
  data?: Prisma.InputJsonValue;
}

/** Appends to the ordered change log; always inside the transaction that made the change. */
export async function recordChange(tx: Tx, change: ChangeRecord): Promise<void> {
  await tx.change.create({ data: { ...change, data: change.data ?? {} } });
}

/** The reconciler's entry for a binding whose phase it changed. */
export function recordBindingStatus(
  tx: Tx,
  fqn: string,
  generation: number,
  status: { phase: string; message?: string | null },
): Promise<void> {
  return recordChange(tx, {
    entityType: "binding",
    entityKey: fqn,
    action: "status",
    generation,
    actor: "reconciler",
    data: status,
  });
}
