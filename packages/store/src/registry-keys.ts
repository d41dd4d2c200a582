import { SecretBoxError, type Keyring } from "@stream-registry/core";
import type { Db, DbClient } from "./db.ts";
import { enqueueJob } from "./job-queue.ts";
import { PARENT_LINK_RESOURCE } from "./parent-link.ts";
import type { Tx } from "./transaction.ts";
import { open, openClient } from "./open-db.ts";

/** A public signing key as a JWK (Ed25519: kty OKP, crv Ed25519, x), named by its `kid`. */
export interface PublicJwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
  alg?: string;
  use?: string;
}

/** The private half as stored: its 32-byte seed wrapped with the secrets key (core's Keyring.wrap). */
export interface WrappedPrivateKey {
  kid: string;
  iv: string;
  data: string;
  tag: string;
}

/** One of this registry's signing keys (registry_key). */
export interface RegistryKeyRow {
  kid: string;
  publicJwk: PublicJwk;
  privateKey: WrappedPrivateKey;
  createdAt: Date;
  retiredAt: Date | null;
}

/** What a key's wrapped seed is bound to (its associated data): moved to another row, it does not unwrap. */
export function registryKeyOwner(kid: string): string {
  return JSON.stringify(["registry_key", kid]);
}

/** This registry's keys, the newest first; retired ones too (they verify until their tokens expire). */
export async function listRegistryKeys(db: Db): Promise<RegistryKeyRow[]> {
  const rows = await open(db).registryKey.findMany({ orderBy: [{ createdAt: "desc" }, { kid: "asc" }] });
  return rows.map((row) => ({
    kid: row.kid,
    publicJwk: row.publicJwk as unknown as PublicJwk,
    privateKey: row.privateKey as unknown as WrappedPrivateKey,
    createdAt: row.createdAt,
    retiredAt: row.retiredAt,
  }));
}

/**
 * Adds a key that signs from now on, and retires the others (they verify until `retiredAt` plus the
 * tokens' lifetime); keys retired before `pruneBefore` are deleted. One at a time: the rows are locked.
 */
export async function addRegistryKey(
  tx: Tx,
  key: { kid: string; publicJwk: PublicJwk; privateKey: WrappedPrivateKey },
  pruneBefore: Date,
  at = new Date(),
): Promise<void> {
  await open(tx).$executeRawUnsafe(`SELECT 1 FROM registry_key FOR UPDATE`);
  await open(tx).registryKey.updateMany({ where: { retiredAt: null }, data: { retiredAt: at } });
  await open(tx).registryKey.deleteMany({ where: { retiredAt: { lt: pruneBefore } } });
  await open(tx).registryKey.create({
    data: {
      kid: key.kid,
      publicJwk: key.publicJwk as object,
      privateKey: key.privateKey as object,
      createdAt: at,
    },
  });
}

/**
 * Makes the first key unless another process sharing the database made one first: true if this
 * call made it.
 */
export async function addFirstRegistryKey(
  db: Db,
  key: { kid: string; publicJwk: PublicJwk; privateKey: WrappedPrivateKey },
): Promise<boolean> {
  const made = await open(db).$executeRawUnsafe(
    `INSERT INTO registry_key (kid, public_jwk, private_key, created_at)
     SELECT $1, $2::jsonb, $3::jsonb, $4 WHERE NOT EXISTS (SELECT 1 FROM registry_key)
     ON CONFLICT DO NOTHING`,
    key.kid,
    JSON.stringify(key.publicJwk),
    JSON.stringify(key.privateKey),
    new Date(),
  );
  return made > 0;
}

/** The keys of the registered parent (the live link), as it last answered; null without a parent. */
export async function findParentKeys(
  db: Db,
): Promise<{ parentRegistryId: string | null; keys: PublicJwk[] } | null> {
  const [row] = await open(db).$queryRawUnsafe<{ parentRegistryId: string | null; keys: PublicJwk[] }[]>(
    `SELECT parent_registry_id::text AS "parentRegistryId", keys FROM parent_link WHERE phase <> 'DELETING'`,
  );
  return row ?? null;
}

/** The keys the registered child `registryId` last registered with; null if it is not registered. */
export async function findChildKeys(db: Db, registryId: string): Promise<PublicJwk[] | null> {
  const found = await open(db).childRegistry.findUnique({ where: { registryId }, select: { keys: true } });
  return found ? (found.keys as unknown as PublicJwk[]) : null;
}

/**
 * Keeps the keys the parent `parentRegistryId` answered with, if the live link is still to that
 * parent: true if they were written.
 */
export async function recordParentKeys(
  db: Db,
  parentRegistryId: string,
  keys: PublicJwk[],
): Promise<boolean> {
  const written = await open(db).$executeRawUnsafe(
    `UPDATE parent_link SET keys = $2::jsonb WHERE phase <> 'DELETING' AND parent_registry_id = $1::uuid`,
    parentRegistryId,
    JSON.stringify(keys),
  );
  return written > 0;
}

/**
 * Asks for the live link to the parent to be realized again (a new generation and a job): the
 * registration that follows carries this registry's new keys. False without a parent.
 */
export async function reregisterWithParent(tx: Tx): Promise<boolean> {
  const [link] = await open(tx).$queryRawUnsafe<{ id: string }[]>(
    `UPDATE parent_link SET generation = generation + 1, updated_at = now()
     WHERE phase <> 'DELETING' RETURNING id::text AS id`,
  );
  if (!link) return false;
  await enqueueJob(tx, PARENT_LINK_RESOURCE.kind, link.id);
  return true;
}

/**
 * Wraps every signing key's seed with the keyring's current key-encryption key (npm run
 * secrets:rotate, beside the secret envelopes): what it rewrapped, and the keys it could not.
 */
export async function rewrapRegistryKeys(
  prisma: DbClient,
  keyring: Keyring,
): Promise<{ rewrapped: number; failed: { kid: string; reason: string }[] }> {
  const failed: { kid: string; reason: string }[] = [];
  let rewrapped = 0;
  for (const row of await listRegistryKeys(prisma)) {
    if (row.privateKey.kid === keyring.current.kid) continue;
    try {
      const privateKey = keyring.rewrap(row.privateKey, registryKeyOwner(row.kid));
      await openClient(prisma).registryKey.update({
        where: { kid: row.kid },
        data: { privateKey: privateKey as object },
      });
      rewrapped++;
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      failed.push({ kid: row.kid, reason: error.message });
    }
  }
  return { rewrapped, failed };
}
