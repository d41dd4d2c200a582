import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./workspace.ts";

const migrations = join(repoRoot, "prisma", "migrations");
const migrateScript = join(repoRoot, "packages", "store", "scripts", "migrate.ts");

let template: Promise<string> | undefined;

/**
 * A new PGlite data directory holding an empty database with every migration applied, as
 * `npm run db:migrate` leaves it: a copy of a template made once per schema and machine. A registry
 * on an empty directory first spends seconds of CPU on PGlite's initdb and the migrations, which
 * is what test files starting registries side by side on a 2-core machine cannot afford; a copy
 * takes 50 ms. Tests of a registry's first start use an empty directory instead.
 */
export async function migratedDataDir(label = "registry"): Promise<string> {
  const source = await (template ??= makeTemplate());
  const dir = await mkdtemp(join(tmpdir(), `sr-${label}-`));
  await cp(source, dir, { recursive: true });
  return dir;
}

/**
 * Made by the product's own migrate command in a directory of its own, then renamed into place:
 * test processes making it at once each finish theirs, one rename wins and the others are dropped,
 * and no one ever copies a half-made template.
 */
async function makeTemplate(): Promise<string> {
  const path = join(tmpdir(), `sr-pglite-template-${await schemaHash()}`);
  if (existsSync(path)) return path;
  const making = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    await runMigrate(making);
    await rename(making, path).catch((error: NodeJS.ErrnoException) => {
      if (!(error.code === "ENOTEMPTY" || error.code === "EEXIST")) throw error;
    });
  } finally {
    await rm(making, { recursive: true, force: true });
  }
  return path;
}

/**
 * Names the schema the migrations make, and the PGlite that made it (by the lock file, which
 * pins its version): a template is never used for another one.
 */
async function schemaHash(): Promise<string> {
  const hash = createHash("sha256");
  hash.update(await readFile(join(repoRoot, "package-lock.json")));
  for (const entry of (await readdir(migrations, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (!entry.isDirectory()) continue;
    hash.update(entry.name);
    hash.update(await readFile(join(migrations, entry.name, "migration.sql")));
  }
  return hash.digest("hex").slice(0, 16);
}

async function runMigrate(dataDir: string): Promise<void> {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", migrateScript], {
    cwd: repoRoot,
    env: { ...env, REGISTRY_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`npm run db:migrate on ${dataDir} failed (exit ${code}):\n${output}`);
}
