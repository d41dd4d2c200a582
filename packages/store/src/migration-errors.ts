/** Any reason the database schema cannot be brought up to date; the registry must not start. */
export class MigrationError extends Error {
  override name = "MigrationError";
}

/** The migrations directory, or a migration.sql in it, cannot be read. */
export class MigrationsDirectoryError extends MigrationError {
  override name = "MigrationsDirectoryError";
}

/** A migration recorded as applied no longer matches its file: someone edited history. */
export class EditedMigrationError extends MigrationError {
  override name = "EditedMigrationError";
  readonly migration: string;
  constructor(migration: string) {
    super(
      `migration ${migration} was modified after it was applied to this database ` +
        `(its checksum in _prisma_migrations differs from migration.sql); restore the file ` +
        `and put the change in a new migration`,
    );
    this.migration = migration;
  }
}

/**
 * A migration is recorded as started but neither finished nor rolled back, which Prisma's own
 * `migrate deploy` leaves behind when a script fails. Applying more on top could compound the damage.
 */
export class FailedMigrationError extends MigrationError {
  override name = "FailedMigrationError";
  readonly migration: string;
  constructor(migration: string) {
    super(
      `migration ${migration} is recorded as failed in _prisma_migrations; fix the database by hand, ` +
        `then mark it rolled back (set rolled_back_at) or applied (set finished_at) before starting again`,
    );
    this.migration = migration;
  }
}

/** A migration's SQL failed; its transaction was rolled back, so nothing of it remains. */
export class MigrationScriptError extends MigrationError {
  override name = "MigrationScriptError";
  readonly migration: string;
  constructor(migration: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`migration ${migration} failed and was rolled back: ${reason}`, { cause });
    this.migration = migration;
  }
}
