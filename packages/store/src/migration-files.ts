import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MigrationsDirectoryError } from "./migration-errors.ts";

/** One `<timestamp>_<name>/migration.sql` of a Prisma migrations directory. */
export interface MigrationFile {
  /** The directory name, which is what `_prisma_migrations.migration_name` records. */
  readonly name: string;
  readonly script: string;
  /** sha256 hex of the file's bytes, as `prisma migrate deploy` computes it. */
  readonly checksum: string;
}

export const defaultMigrationsDir = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));

/** Reads every migration directory, in the order they must be applied. */
export async function readMigrationFiles(dir: string): Promise<MigrationFile[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new MigrationsDirectoryError(`cannot read the migrations directory ${dir}`, { cause: error });
  }
  // Code-unit order, not localeCompare: the same on every machine whatever its locale; with
  // Prisma's timestamp prefixes both orders agree.
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(names.map((name) => readMigrationFile(dir, name)));
}

async function readMigrationFile(dir: string, name: string): Promise<MigrationFile> {
  const path = join(dir, name, "migration.sql");
  let bytes;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new MigrationsDirectoryError(`migration ${name} has no readable migration.sql (${path})`, {
      cause: error,
    });
  }
  return { name, script: bytes.toString("utf8"), checksum: sha256Hex(bytes) };
}

/**
 * Whether a recorded checksum belongs to this file. Like Prisma, a file whose line endings were
 * changed by a checkout (LF <-> CRLF) still matches.
 */
export function matchesChecksum(file: MigrationFile, recorded: string): boolean {
  if (file.checksum === recorded) return true;
  const lf = file.script.replaceAll("\r\n", "\n");
  return [lf, lf.replaceAll("\n", "\r\n")].some((variant) => sha256Hex(Buffer.from(variant)) === recorded);
}

function sha256Hex(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}
