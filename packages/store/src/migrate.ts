import type { Database, SqlSession } from "./database.ts";
import { EditedMigrationError, FailedMigrationError, MigrationScriptError } from "./migration-errors.ts";
import { defaultMigrationsDir, matchesChecksum, readMigrationFiles } from "./migration-files.ts";
import type { MigrationFile } from "./migration-files.ts";
import { ensureMigrationsTable, readMigrationRecords, recordApplied } from "./migrations-table.ts";
import type { MigrationRecord } from "./migrations-table.ts";

export interface MigrateOptions {
  /** A Prisma migrations directory; defaults to the repository's prisma/migrations. */
  migrationsDir?: string | undefined;
}

// Prisma Migrate's advisory lock key (prisma-engines, PostgreSQL flavour): registry processes
// starting together, and `prisma migrate deploy`, all wait for one another.
const migrateLockKey = 72707369;

/**
 * Applies every pending migration, each in its own transaction, and records it in
 * `_prisma_migrations` as `prisma migrate deploy` would. Throws a MigrationError, applying
 * nothing, when the recorded history disagrees with the files.
 */
export async function migrate(db: Database, options: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const files = await readMigrationFiles(options.migrationsDir ?? defaultMigrationsDir);
  return db.withSession(async (session) => {
    await session.query("SELECT pg_advisory_lock($1)", [migrateLockKey]);
    try {
      await ensureMigrationsTable(session);
      const applied: string[] = [];
      for (const file of selectPending(files, await readMigrationRecords(session))) {
        await applyMigration(session, file);
        applied.push(file.name);
      }
      return { applied };
    } finally {
      // A failed unlock means the session is gone, and PostgreSQL released the lock with it.
      await session.query("SELECT pg_advisory_unlock($1)", [migrateLockKey]).catch(() => {});
    }
  });
}

/** Names of the migrations `migrate` would apply; throws as `migrate` would on a bad history. */
export async function pendingMigrations(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  const files = await readMigrationFiles(options.migrationsDir ?? defaultMigrationsDir);
  const records = await db.withSession(readMigrationRecords);
  return selectPending(files, records).map((file) => file.name);
}

function selectPending(files: MigrationFile[], records: MigrationRecord[]): MigrationFile[] {
  const failed = records.find((record) => record.finishedAt === null && record.rolledBackAt === null);
  if (failed) throw new FailedMigrationError(failed.migrationName);
  // Rolled-back attempts don't count: Prisma applies such a migration again.
  const applied = new Map(
    records
      .filter((record) => record.rolledBackAt === null)
      .map((record) => [record.migrationName, record.checksum]),
  );
  for (const file of files) {
    const checksum = applied.get(file.name);
    if (checksum !== undefined && !matchesChecksum(file, checksum)) throw new EditedMigrationError(file.name);
  }
  return files.filter((file) => !applied.has(file.name));
}

async function applyMigration(session: SqlSession, file: MigrationFile): Promise<void> {
  await session.exec("BEGIN");
  try {
    await session.exec(file.script);
    await recordApplied(session, file);
    await session.exec("COMMIT");
  } catch (error) {
    // If the connection itself broke, PostgreSQL has rolled back already.
    await session.exec("ROLLBACK").catch(() => {});
    throw new MigrationScriptError(file.name, error);
  }
}
