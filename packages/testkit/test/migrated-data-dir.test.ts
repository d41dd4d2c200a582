import { execFile } from "node:child_process";
import { readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { migratedDataDir } from "../src/registry/migrated-data-dir.ts";
import { repoRoot } from "../src/registry/workspace.ts";

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

it("gives each caller a directory of its own, with every migration applied", async () => {
  const [a, b] = await Promise.all([migratedDataDir("copy"), migratedDataDir("copy")]);
  made.push(a!, b!);
  expect(a).not.toBe(b);
  await writeFile(join(a!, "only-in-a"), "");
  expect(await readdir(b!)).not.toContain("only-in-a");
  // The product's own migrate command finds nothing left to apply, and no lock left behind.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", join(repoRoot, "packages", "store", "scripts", "migrate.ts")],
    { cwd: repoRoot, env: { ...process.env, DATABASE_URL: "", REGISTRY_DATA_DIR: b! } },
  );
  expect(stdout.trim()).toBe(`${b}: up to date`);
  expect(await readdir(b!)).not.toContain("registry.lock");
}, 60_000);
