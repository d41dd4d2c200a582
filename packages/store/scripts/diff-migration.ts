import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MigrationList } from "@prisma/schema-engine-wasm/schema_engine_bg";
import { readMigrationFiles } from "../src/migration-files.ts";
import { openSchemaEngine } from "./schema-engine.ts";

/**
 * The SQL that takes a database migrated with `migrationsDir` to `schemaPath`, as
 * `prisma migrate dev` would write it; undefined when there is nothing to do.
 */
export async function diffMigration(migrationsDir: string, schemaPath: string): Promise<string | undefined> {
  const schema = await readFile(schemaPath, "utf8");
  const engine = await openSchemaEngine([[schemaPath, schema]]);
  try {
    const { stdout } = await engine.diff({
      from: { tag: "migrations", ...(await migrationList(migrationsDir)) },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: false,
      filters: { externalTables: [], externalEnums: [] },
    });
    // An empty diff comes back as "-- This is an empty migration."
    return stdout && stdout.replace(/^--.*$/gm, "").trim() !== "" ? stdout : undefined;
  } finally {
    engine.free();
  }
}

async function migrationList(baseDir: string): Promise<MigrationList> {
  const lockfile = await readFile(join(baseDir, "migration_lock.toml"), "utf8").catch(() => null);
  const files = await readMigrationFiles(baseDir);
  return {
    baseDir,
    lockfile: { path: "migration_lock.toml", content: lockfile },
    shadowDbInitScript: "",
    migrationDirectories: files.map((file) => ({
      path: file.name,
      migrationFile: { path: "migration.sql", content: { tag: "ok", value: file.script } },
    })),
  };
}
