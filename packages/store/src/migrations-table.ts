import { randomUUID } from "node:crypto";
import type { SqlSession } from "./database.ts";
import type { MigrationFile } from "./migration-files.ts";

/** One row of `_prisma_migrations`. */
export interface MigrationRecord {
  readonly migrationName: string;
  readonly checksum: string;
  readonly finishedAt: Date | null;
  readonly rolledBackAt: Date | null;
}

// Prisma's own DDL (schema engine, PostgreSQL flavour) so that `prisma migrate deploy` and this
// runner share one history. IF NOT EXISTS only guards a rerun; the table is the same.
const createTableSql = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

export async function ensureMigrationsTable(session: SqlSession): Promise<void> {
  await session.exec(createTableSql);
}

/** Every recorded attempt, oldest first; none when the table does not exist yet. */
export async function readMigrationRecords(session: SqlSession): Promise<MigrationRecord[]> {
  const [probe] = await session.query<{ present: boolean }>(
    "SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present",
  );
  if (!probe?.present) return [];
  return session.query<MigrationRecord>(
    `SELECT migration_name AS "migrationName", checksum, finished_at AS "finishedAt",
            rolled_back_at AS "rolledBackAt"
       FROM _prisma_migrations ORDER BY started_at`,
  );
}

/**
 * Records a migration as Prisma does after a successful script: one step applied, finished.
 * Called inside the migration's transaction, so now() is when it started.
 */
export async function recordApplied(session: SqlSession, file: MigrationFile): Promise<void> {
  await session.query(
    `INSERT INTO _prisma_migrations
       (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
     VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
    [randomUUID(), file.checksum, file.name],
  );
}
