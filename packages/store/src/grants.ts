import type { Grant, Role, Visibility } from "@stream-registry/core";
import { recordChange } from "./change-log.ts";
import type { Db, DbClient } from "./db.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { writeTransaction, type Tx } from "./transaction.ts";
import { visibleSql } from "./visibility.ts";
import { open } from "./open-db.ts";

/**
 * Grants (issue 11): who may do what where, kept with their scope below this registry's namespace
 * (core's grant.ts). A grant's identity is (principal, role, scope, stream prefix): granting it
 * again changes nothing. Each grant and revocation is an entry of the change log ("grant"), which
 * only those who administer its scope read (change-log-reads.ts).
 */

export interface StoredGrant extends Grant {
  id: string;
  createdBy: string;
  createdAt: Date;
}

/** Where a page of grants starts: after this one in (scope, principal, role, prefix) order. */
export type GrantPosition = [scope: string, principal: string, role: Role, streamPrefix: string];

export interface GrantFilter {
  principal?: string | undefined;
  /** A namespace below this registry's: the grants that apply to it, above or at it, or below it. */
  namespace?: string | undefined;
}

/** Which grants a principal may list: those of the scopes it administers, and those naming it. */
export interface GrantVisibility {
  administers: Visibility;
  names: readonly string[];
}

/**
 * What the change log says of a grant: its scope is shown as the absolute path it had then, and
 * its principal as people read it then (`token:admin@/`; default: as kept).
 */
export interface GrantLog {
  actor: string;
  scopePath: string;
  principal?: string;
}

interface GrantRow {
  id: string;
  principal: string;
  role: Role;
  scope: string;
  stream_prefix: string;
  created_by: string;
  created_at: Date;
}

const COLUMNS = Prisma.sql`id::text, principal, role::text AS role, scope, stream_prefix, created_by, created_at`;

function toGrant(row: GrantRow): StoredGrant {
  return {
    id: row.id,
    principal: row.principal,
    role: row.role,
    scope: row.scope,
    streamPrefix: row.stream_prefix === "" ? null : row.stream_prefix,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

/** The grants naming one of `names` ("user:alice", "group:devs", ...): what a request's access is made of. */
export async function findGrantsNamed(db: Db, names: readonly string[]): Promise<StoredGrant[]> {
  if (names.length === 0) return [];
  const rows = await open(db).$queryRaw<GrantRow[]>`
    SELECT ${COLUMNS} FROM access_grant WHERE principal = ANY(${[...names]}::text[])`;
  return rows.map(toGrant);
}

/** Grants `grant`; `created` false (and no entry) when it was granted already. */
export async function createGrant(
  prisma: DbClient,
  grant: Grant,
  log: GrantLog,
): Promise<{ grant: StoredGrant; created: boolean }> {
  return writeTransaction(prisma, (tx) => insertGrant(tx, grant, log));
}

/**
 * `createGrant` in the caller's transaction: the first start gives its admin token the admin
 * grant in the transaction that makes the token.
 */
export async function insertGrant(
  tx: Tx,
  grant: Grant,
  log: GrantLog,
): Promise<{ grant: StoredGrant; created: boolean }> {
  const [made] = await open(tx).$queryRaw<GrantRow[]>`
    INSERT INTO access_grant (id, principal, role, scope, stream_prefix, created_by, created_at)
    VALUES (gen_random_uuid(), ${grant.principal}, ${grant.role}::grant_role, ${grant.scope},
      ${grant.streamPrefix ?? ""}, ${log.actor}, ${new Date()})
    ON CONFLICT (principal, role, scope, stream_prefix) DO NOTHING
    RETURNING ${COLUMNS}`;
  if (!made) return { grant: (await findGrant(tx, grant))!, created: false };
  await recordChange(tx, grantChange(grant, "created", log));
  return { grant: toGrant(made), created: true };
}

/**
 * Revokes `grant`: the grant as it was, or null if there was none. An admin grant on this
 * registry's own namespace (without prefix) is not revoked while it is the last one that can be
 * used ("last admin"; an API token's counts while the token is live): no one could grant anything
 * here again. Those grants are locked meanwhile, so two
 * revocations at once cannot both pass.
 */
export async function deleteGrant(
  prisma: DbClient,
  grant: Grant,
  log: GrantLog,
): Promise<StoredGrant | null | "last admin"> {
  return writeTransaction(prisma, async (tx) => {
    if (grant.role === "admin" && grant.scope === "" && grant.streamPrefix === null) {
      // An API token's grant counts only while the token can be used (not revoked, not expired):
      // others cannot let anyone in. Users and groups count: who holds them is the issuer's.
      const admins = await open(tx).$queryRaw<{ principal: string }[]>`
        SELECT g.principal FROM access_grant g
        WHERE g.role = 'admin' AND g.scope = '' AND g.stream_prefix = ''
          AND (g.principal NOT LIKE 'token:%' OR EXISTS (
            SELECT 1 FROM api_token t
            WHERE 'token:' || t.name = g.principal AND t.revoked_at IS NULL
              AND (t.expires_at IS NULL OR t.expires_at > now())))
        ORDER BY g.id FOR UPDATE OF g`;
      if (admins.length === 1 && admins[0]!.principal === grant.principal) return "last admin";
    }
    const [gone] = await open(tx).$queryRaw<GrantRow[]>`
      DELETE FROM access_grant
      WHERE principal = ${grant.principal} AND role = ${grant.role}::grant_role AND scope = ${grant.scope}
        AND stream_prefix = ${grant.streamPrefix ?? ""}
      RETURNING ${COLUMNS}`;
    if (!gone) return null;
    await recordChange(tx, grantChange(grant, "deleted", log));
    return toGrant(gone);
  });
}

/** A page of the grants `visible` shows that `filter` keeps, by scope, principal, role and prefix. */
export async function listGrants(
  db: Db,
  filter: GrantFilter,
  visible: GrantVisibility,
  page: { after?: GrantPosition | undefined; limit: number },
): Promise<StoredGrant[]> {
  const after = page.after
    ? Prisma.sql`AND (scope COLLATE "C", principal COLLATE "C", role::text COLLATE "C", stream_prefix COLLATE "C") >
        (${page.after[0]}, ${page.after[1]}, ${page.after[2]}, ${page.after[3]})`
    : Prisma.empty;
  const rows = await open(db).$queryRaw<GrantRow[]>`
    SELECT ${COLUMNS} FROM access_grant WHERE ${whereSql(filter, visible)} ${after}
    ORDER BY scope COLLATE "C", principal COLLATE "C", role::text COLLATE "C", stream_prefix COLLATE "C"
    LIMIT ${page.limit}`;
  return rows.map(toGrant);
}

export async function countGrants(db: Db, filter: GrantFilter, visible: GrantVisibility): Promise<number> {
  const [row] = await open(db).$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM access_grant WHERE ${whereSql(filter, visible)}`;
  return row!.count;
}

async function findGrant(db: Db, grant: Grant): Promise<StoredGrant | undefined> {
  const [row] = await open(db).$queryRaw<GrantRow[]>`
    SELECT ${COLUMNS} FROM access_grant
    WHERE principal = ${grant.principal} AND role = ${grant.role}::grant_role AND scope = ${grant.scope}
      AND stream_prefix = ${grant.streamPrefix ?? ""}`;
  return row && toGrant(row);
}

function whereSql(filter: GrantFilter, visible: GrantVisibility): Prisma.Sql {
  const where = [
    // Qualified: the visibility's pairs have a column "scope" of their own.
    Prisma.sql`(${visibleSql(visible.administers, Prisma.sql`access_grant.scope`)} OR principal = ANY(${[...visible.names]}::text[]))`,
  ];
  if (filter.principal !== undefined) where.push(Prisma.sql`principal = ${filter.principal}`);
  const below = filter.namespace;
  if (below !== undefined) {
    // Whole segments, both ways: grants on it or above it apply to it, and those below it to parts of it.
    where.push(Prisma.sql`(scope = '' OR ${below} = scope OR starts_with(${below}, scope || '/')
      OR ${below} = '' OR starts_with(scope, ${`${below}/`}))`);
  }
  return Prisma.join(where, " AND ");
}

function grantChange(grant: Grant, action: "created" | "deleted", log: GrantLog) {
  const prefix = grant.streamPrefix === null ? "" : ` streams ${grant.streamPrefix}*`;
  const principal = log.principal ?? grant.principal;
  return {
    entityType: "grant",
    entityKey: `${grant.role} on ${log.scopePath}${prefix} to ${principal}`,
    action,
    generation: 1,
    actor: log.actor,
    data: {
      principal,
      role: grant.role,
      namespace: log.scopePath,
      streamPrefix: grant.streamPrefix,
    },
  } as const;
}
