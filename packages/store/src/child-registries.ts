import type { Db } from "./db.ts";
import type { HealthProbe } from "./cluster-health.ts";
import { recordChange } from "./change-log.ts";
import { resetChildIndex } from "./discovery-index.ts";
import { lockRegistrySettings } from "./registry-settings.ts";
import { spendRegistrationProof } from "./registration-proofs.ts";
import type { PublicJwk } from "./registry-keys.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/** The last probe of a child registry (the API's RegistryHealth); null fields before the first. */
export interface ChildHealth {
  status: "UP" | "DOWN";
  checkedAt: Date;
  latencyMs: number | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastUpAt: Date | null;
}

/** A registry that registered with this one. */
export interface ChildRegistry {
  id: string;
  registryId: string;
  name: string;
  url: string;
  version: string;
  createdAt: Date;
  updatedAt: Date;
  health: ChildHealth | null;
  /** Since when an admin of this registry has suspended it (null: it is not suspended), and who. */
  suspendedAt: Date | null;
  suspendedBy: string | null;
}

/** What a child sends to register. */
export interface ChildRegistration {
  registryId: string;
  name: string;
  url: string;
  sdl: string;
  version: string;
  /** Its public signing keys (JWKs): its tokens to this registry are verified with them. */
  keys: PublicJwk[];
}

const SELECT = {
  id: true,
  registryId: true,
  name: true,
  url: true,
  version: true,
  createdAt: true,
  updatedAt: true,
  suspendedAt: true,
  suspendedBy: true,
  health: {
    select: {
      status: true,
      checkedAt: true,
      latencyMs: true,
      lastError: true,
      lastErrorAt: true,
      lastUpAt: true,
    },
  },
} as const;

/** This registry's children, by name. */
export async function listChildRegistries(db: Db): Promise<ChildRegistry[]> {
  return open(db).childRegistry.findMany({ select: SELECT, orderBy: { name: "asc" } });
}

export async function findChildRegistry(db: Db, registryId: string): Promise<ChildRegistry | null> {
  return open(db).childRegistry.findUnique({ where: { registryId }, select: SELECT });
}

/** Where a child is reached: what routing and fan-out need, read in one statement. */
export interface ChildRoute {
  name: string;
  url: string;
  /** Who it is: the audience of the tokens this registry signs for it. */
  registryId: string;
  /** Suspended by an admin here: it is not called (services/child-admin-service.ts). */
  suspended: boolean;
}

const ROUTE = { name: true, url: true, registryId: true, suspendedAt: true } as const;

/** The children's routes, by name (a list of the whole subtree asks each of them). */
export async function listChildRoutes(db: Db): Promise<ChildRoute[]> {
  const rows = await open(db).childRegistry.findMany({ select: ROUTE, orderBy: { name: "asc" } });
  return rows.map(({ suspendedAt, ...route }) => ({ ...route, suspended: suspendedAt !== null }));
}

/** Why a registration was refused here, with nothing written. */
export type RegistrationRefusal =
  /** Another registry has the name. */
  | "taken"
  /**
   * The registry id is registered, and no proof was checked against the keys it holds now; or it
   * is not (any longer), and the request was not enrolled with the enrollment token.
   */
  | "proof"
  /** The proof was shown before. */
  | "replayed";

/**
 * How the service authenticated a registration: the enrollment token (for a registry id new
 * here), or a proof it verified against the child's `pinned` keys, spent (its jti recorded) here.
 */
export type RegistrationAuth =
  { enrolled: true } | { proof: { jti: string; expiresAt: Date; pinned: readonly PublicJwk[] } };

/**
 * Registers a child, or registers it again (a restart, a new name, URL, schema or keys): one row
 * per registry id. A registry id registered already must have shown a proof signed with a key it
 * registered with (`auth.proof`, checked against the keys it still holds, and spent once): nobody
 * else can move it or take its name. Registrations are applied one at a time (the settings row is
 * locked), so the checks hold. A change-log entry ("child_registry", keyed by its path) when it is
 * new or something changed; registering again as it was writes nothing. A child that takes
 * another name, or leaves, is dropped from the discovery index (`resetChildIndex`).
 */
export async function registerChildRegistry(
  tx: Tx,
  child: ChildRegistration,
  auth: RegistrationAuth,
  path: string,
  actor: string,
): Promise<{ child: ChildRegistry; created: boolean } | { refused: RegistrationRefusal }> {
  await lockRegistrySettings(tx);
  const existing = await open(tx).childRegistry.findUnique({ where: { registryId: child.registryId } });
  const proven = await provenAs(tx, existing, auth);
  if (proven !== true) return { refused: proven };
  const holder = await open(tx).childRegistry.findUnique({
    where: { name: child.name },
    select: { registryId: true },
  });
  if (holder && holder.registryId !== child.registryId) return { refused: "taken" };
  const same =
    existing &&
    existing.name === child.name &&
    existing.url === child.url &&
    existing.sdl === child.sdl &&
    existing.version === child.version &&
    keyIds(existing.keys as unknown as PublicJwk[]) === keyIds(child.keys);
  if (!same) {
    // Under another name, its rows would sit under the old one: the index starts it over.
    if (existing && existing.name !== child.name)
      await resetChildIndex(tx, existing.id, existing.name, actor);
    const row = { ...child, keys: child.keys as object[] };
    await open(tx).childRegistry.upsert({
      where: { registryId: child.registryId },
      create: row,
      update: row,
    });
    await recordChange(tx, {
      entityType: "child_registry",
      entityKey: path,
      action: existing ? "updated" : "created",
      generation: 1,
      actor,
      data: { registryId: child.registryId, url: child.url, version: child.version },
    });
  }
  return { child: (await findChildRegistry(tx, child.registryId))!, created: !existing };
}

/**
 * Forgets a child that proved itself (`proof`, verified against `pinned`); null, writing
 * nothing, if it was not registered, a refusal if its keys changed since or the proof was shown
 * before.
 */
export async function unregisterChildRegistry(
  tx: Tx,
  registryId: string,
  proof: { jti: string; expiresAt: Date; pinned: readonly PublicJwk[] },
  path: (name: string) => string,
  actor: string,
): Promise<ChildRegistry | null | Exclude<RegistrationRefusal, "taken">> {
  await lockRegistrySettings(tx);
  const existing = await open(tx).childRegistry.findUnique({ where: { registryId } });
  if (!existing) return null;
  const proven = await provenAs(tx, existing, { proof });
  if (proven !== true) return proven;
  const child = (await findChildRegistry(tx, registryId))!;
  await forgetChildRegistry(tx, child, path(child.name), actor);
  return child;
}

/** Whether `auth` authenticates a registration of `existing` (null: a registry id new here). */
async function provenAs(
  tx: Tx,
  existing: { keys: unknown } | null,
  auth: RegistrationAuth,
): Promise<true | Exclude<RegistrationRefusal, "taken">> {
  if (!existing) return "enrolled" in auth ? true : "proof";
  // Checked against the keys it holds still: a registration that changed them meanwhile wins.
  if (!("proof" in auth) || keyIds(existing.keys as PublicJwk[]) !== keyIds(auth.proof.pinned))
    return "proof";
  return (await spendRegistrationProof(tx, auth.proof.jti, auth.proof.expiresAt)) ? true : "replayed";
}

/**
 * Deletes a child's registration, with its pinned keys, its probes and its rows of the discovery
 * index; the index says so in this registry's feed (an `index`/`dropped` entry), so every
 * ancestor drops the child's subtree too. The caller holds the settings lock.
 */
export async function forgetChildRegistry(
  tx: Tx,
  child: Pick<ChildRegistry, "id" | "name" | "registryId">,
  path: string,
  actor: string,
): Promise<void> {
  await resetChildIndex(tx, child.id, child.name, actor);
  await open(tx).childRegistry.delete({ where: { id: child.id } });
  await recordChange(tx, {
    entityType: "child_registry",
    entityKey: path,
    action: "deleted",
    generation: 1,
    actor,
    data: { registryId: child.registryId },
  });
}

/** Keys by what identifies them (jsonb orders a key's fields its own way). */
function keyIds(keys: readonly PublicJwk[]): string {
  return JSON.stringify(keys.map((key) => [key.kid, key.x]));
}

/** Children not probed since `before` (or never), with the status of their last probe. */
export async function childrenDueForProbe(db: Db, before: Date): Promise<ChildRegistry[]> {
  return open(db).childRegistry.findMany({
    // A suspended child is not called, probes included.
    where: {
      suspendedAt: null,
      OR: [{ health: null }, { health: { checkedAt: { lt: before } } }],
    },
    select: SELECT,
    orderBy: { name: "asc" },
  });
}

/**
 * Records a probe of a child, as recordClusterHealth does for a cluster: not in the change log; a
 * failure keeps `lastUpAt`, a success keeps the last error; a child gone meanwhile is ignored.
 */
export async function recordChildHealth(
  db: Db,
  childId: string,
  outcome: HealthProbe,
  at: Date = new Date(),
): Promise<void> {
  const data = outcome.ok
    ? { status: "UP" as const, checkedAt: at, latencyMs: outcome.probe.latencyMs, lastUpAt: at }
    : { status: "DOWN" as const, checkedAt: at, latencyMs: null, lastError: outcome.error, lastErrorAt: at };
  await open(db)
    .childRegistryHealth.upsert({ where: { childId }, create: { childId, ...data }, update: data })
    .catch((error: unknown) => {
      if ((error as { code?: string }).code !== "P2003") throw error;
    });
}
