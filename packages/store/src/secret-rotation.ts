import { ownerIdentity, SecretBoxError, type Keyring } from "@stream-registry/core";
import type { Db, DbClient } from "./db.ts";
import { envelopeOwner, toEnvelope } from "./secret-envelopes.ts";
import { writeTransaction } from "./transaction.ts";
import { open, openClient } from "./open-db.ts";

/** How many data keys each key-encryption key wraps. */
export interface KeyUsage {
  kid: string;
  envelopes: number;
}

export interface RotationReport {
  /** Data keys now wrapped with the current key that were not before. */
  rewrapped: number;
  /** Data keys that were wrapped with it already. */
  current: number;
  /** Envelopes that could not be rewrapped (their key id not configured, or altered). */
  failed: { owner: string; kid: string; reason: string }[];
  /** After the run. */
  usage: KeyUsage[];
}

export async function secretKeyUsage(db: Db): Promise<KeyUsage[]> {
  const rows = await open(db).secretEnvelope.groupBy({
    by: ["kid"],
    _count: { _all: true },
    orderBy: { kid: "asc" },
  });
  return rows.map((row) => ({ kid: row.kid, envelopes: row._count._all }));
}

/**
 * Rewraps every data key not wrapped with the keyring's current key (rotation): each envelope in a
 * transaction of its own, locked, so registries sharing the database may write meanwhile. The
 * values sealed under a data key stay as they are. Returns what it did and which key ids are left.
 */
export async function rewrapEnvelopes(
  prisma: DbClient,
  keyring: Keyring,
  batchSize = 100,
): Promise<RotationReport> {
  const currentKid = keyring.current.kid;
  const current = await openClient(prisma).secretEnvelope.count({ where: { kid: currentKid } });
  const failed: RotationReport["failed"] = [];
  let rewrapped = 0;
  let after: string | undefined;
  for (;;) {
    const batch = await openClient(prisma).secretEnvelope.findMany({
      where: { kid: { not: currentKid }, ...(after ? { id: { gt: after } } : {}) },
      select: { id: true },
      orderBy: { id: "asc" },
      take: batchSize,
    });
    if (batch.length === 0) break;
    after = batch.at(-1)!.id;
    for (const { id } of batch) {
      const outcome = await writeTransaction(prisma, async (tx) => {
        await open(tx).$queryRaw`SELECT 1 FROM secret_envelope WHERE id = ${id}::uuid FOR UPDATE`;
        const row = await open(tx).secretEnvelope.findUnique({
          where: { id },
          include: { cluster: { select: { name: true } }, stream: { select: { name: true } } },
        });
        if (!row || row.kid === currentKid) return "skipped" as const;
        const owner = envelopeOwner(row);
        try {
          const { kid, ...wrappedKey } = keyring.rewrap(toEnvelope(row)!.wrappedKey, ownerIdentity(owner));
          await open(tx).secretEnvelope.update({ where: { id }, data: { kid, wrappedKey } });
          return "rewrapped" as const;
        } catch (error) {
          if (!(error instanceof SecretBoxError)) throw error;
          const named = row.cluster ?? row.stream;
          const name = named ? JSON.stringify(named.name) : owner.id;
          return { owner: `${owner.kind} ${name}`, kid: row.kid, reason: error.message };
        }
      });
      if (outcome === "rewrapped") rewrapped++;
      else if (outcome !== "skipped") failed.push(outcome);
    }
  }
  return { rewrapped, current, failed, usage: await secretKeyUsage(prisma) };
}
