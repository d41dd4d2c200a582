import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { defaultMigrationsDir, readMigrationFiles } from "./migration-files.ts";

/** The file initdb writes last, and by which PGlite tells a database from an empty directory. */
const MARKER = "PG_VERSION";

/**
 * Where the template of this PGlite version and these migrations lives: in node_modules/.cache,
 * made by `npm install` (`npm run db:template`) like any build cache there. Named by both, so a
 * template is never used for another PGlite or schema: after a new migration, new directories
 * are made by initdb again until `npm run db:template` runs.
 */
export async function pgliteTemplateDir(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const packageDir = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
  const { version } = JSON.parse(await readFile(path.join(packageDir, "package.json"), "utf8")) as {
    version: string;
  };
  const hash = createHash("sha256");
  for (const file of await readMigrationFiles(defaultMigrationsDir))
    hash.update(`${file.name} ${file.checksum}\n`);
  const within = `${path.sep}node_modules${path.sep}`;
  const nodeModules = packageDir.slice(0, packageDir.lastIndexOf(within) + within.length - 1);
  const name = `pglite-${version}-${hash.digest("hex").slice(0, 16)}`;
  return path.join(nodeModules, ".cache", "stream-registry", name);
}

/** Whether `dataDir` holds a database (PGlite's own test). */
export const holdsDatabase = (dataDir: string) => existsSync(path.join(dataDir, MARKER));

/**
 * Fills a data directory that holds no database yet from the template, if there is one: a copy
 * takes tens of milliseconds where initdb and the migrations take seconds of CPU (docs/benchmarks.md).
 * PG_VERSION is copied last, so a copy cut short is copied again at the next start, never resumed.
 * False: no template, PGlite runs initdb as before. The caller holds the directory's lock.
 */
export async function fillFromTemplate(dataDir: string): Promise<boolean> {
  if (holdsDatabase(dataDir)) return false;
  const template = await pgliteTemplateDir().catch(() => undefined);
  if (!template || !holdsDatabase(template)) return false;
  // About 1,100 files: copied all at once (libuv's threads), where fs.cp copies one by one and
  // took 1 to 2 s of a start (docs/benchmarks.md).
  const entries = await readdir(template, { recursive: true, withFileTypes: true });
  const relative = (entry: (typeof entries)[number]) =>
    path.relative(template, path.join(entry.parentPath, entry.name));
  const dirs = entries.filter((entry) => entry.isDirectory()).map(relative);
  // Parents first (sorted: a parent's path is a prefix of its children's).
  for (const dir of dirs.sort()) await mkdir(path.join(dataDir, dir), { recursive: true });
  const files = entries.filter((entry) => entry.isFile()).map(relative);
  // Settled, not raced: none still writes once the caller unlocks the directory after a failure.
  const copies = await Promise.allSettled(
    files
      .filter((file) => file !== MARKER)
      .map((file) => copyFile(path.join(template, file), path.join(dataDir, file))),
  );
  const failed = copies.find((copy) => copy.status === "rejected");
  if (failed) throw failed.reason;
  await copyFile(path.join(template, MARKER), path.join(dataDir, MARKER));
  return true;
}
