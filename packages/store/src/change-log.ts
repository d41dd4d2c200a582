import type { Prisma } from "./generated/prisma/client.ts";
import type { Tx } from "./transaction.ts";

export interface ChangeRecord {
  /** "cluster", "stream", or a realized resource's kind ("binding", ...). */
  entityType: string;
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
