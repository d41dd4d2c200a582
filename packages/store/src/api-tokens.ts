import { recordChange } from "./change-log.ts";
import type { Db } from "./db.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/** An API token as stored: never its value, only the hash of it (api_token). */
export interface ApiTokenRecord {
  id: string;
  name: string;
  groups: string[];
  createdBy: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const SELECT = {
  id: true,
  name: true,
  groups: true,
  createdBy: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  lastUsedAt: true,
} as const;

/** What a new token is stored as. */
export interface NewApiToken {
  name: string;
  /** base64url of the SHA-256 of its value. */
  hash: string;
  groups: string[];
  createdBy: string;
  expiresAt: Date | null;
}

/**
 * Stores a new token, with a change-log entry ("api_token", keyed by its name, without its hash).
 * A revoked or expired token of that name is replaced (its name is free again); a live one is
 * "taken", and nothing is written.
 */
export async function createApiToken(
  tx: Tx,
  token: NewApiToken,
  at = new Date(),
): Promise<ApiTokenRecord | "taken"> {
  // Locked: two creations of one name wait for each other, and the second sees the first.
  const [held] = await open(tx).$queryRawUnsafe<{ id: string; live: boolean }[]>(
    `SELECT id::text AS id, revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2) AS live
     FROM api_token WHERE name = $1 FOR UPDATE`,
    token.name,
    at,
  );
  if (held?.live) return "taken";
  if (held) await open(tx).apiToken.delete({ where: { id: held.id } });
  const made = await open(tx).apiToken.create({ data: { ...token, createdAt: at }, select: SELECT });
  await recordChange(tx, {
    entityType: "api_token",
    entityKey: token.name,
    action: "created",
    generation: 1,
    actor: token.createdBy,
    data: { groups: token.groups, expiresAt: token.expiresAt?.toISOString() ?? null },
  });
  return made;
}

/**
 * Stores the first token at a registry's first start, unless a token of that name exists (another
 * process sharing the database made it first): true if this call made it. Not in the change log,
 * as the registry's own settings made at its first start are not: it is no one's change.
 */
export async function createFirstApiToken(tx: Tx, token: NewApiToken): Promise<boolean> {
  const made = await open(tx).$executeRawUnsafe(
    `INSERT INTO api_token (id, name, hash, groups, created_by, created_at, expires_at)
     VALUES (gen_random_uuid(), $1, $2, $3::text[], $4, $5, $6) ON CONFLICT DO NOTHING`,
    token.name,
    token.hash,
    token.groups,
    token.createdBy,
    new Date(),
    token.expiresAt,
  );
  return made > 0;
}

/** The token whose value hashes to `hash` (revoked and expired ones too: the caller says why not). */
export async function findApiTokenByHash(db: Db, hash: string): Promise<ApiTokenRecord | null> {
  return open(db).apiToken.findUnique({ where: { hash }, select: SELECT });
}

/** Whether a token of that name exists, and whether its hash is `hash`. */
export async function apiTokenHashMatches(db: Db, name: string, hash: string): Promise<boolean | null> {
  const found = await open(db).apiToken.findUnique({ where: { name }, select: { hash: true } });
  return found ? found.hash === hash : null;
}

/** How many tokens there are, revoked and expired ones included. */
export async function countApiTokens(db: Db): Promise<number> {
  return open(db).apiToken.count();
}

/** Every token, by name. */
export async function listApiTokens(db: Db): Promise<ApiTokenRecord[]> {
  return open(db).apiToken.findMany({ select: SELECT, orderBy: { name: "asc" } });
}

/**
 * Revokes the token `name`, with a change-log entry: null if there is none; a token revoked
 * already is returned as it is, and nothing is written.
 */
export async function revokeApiToken(
  tx: Tx,
  name: string,
  actor: string,
  at = new Date(),
): Promise<ApiTokenRecord | null> {
  const found = await open(tx).apiToken.findUnique({ where: { name }, select: SELECT });
  if (!found || found.revokedAt) return found;
  const revoked = await open(tx).apiToken.update({
    where: { id: found.id },
    data: { revokedAt: at },
    select: SELECT,
  });
  await recordChange(tx, {
    entityType: "api_token",
    entityKey: name,
    action: "revoked",
    generation: 1,
    actor,
  });
  return revoked;
}

/** Records that a token was used (not in the change log); a token gone meanwhile is ignored. */
export async function touchApiToken(db: Db, id: string, at = new Date()): Promise<void> {
  await open(db).$executeRawUnsafe(`UPDATE api_token SET last_used_at = $2 WHERE id = $1::uuid`, id, at);
}
