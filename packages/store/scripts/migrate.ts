// `npm run db:migrate`: applies pending migrations to the database the registry would open.
import { resolve } from "node:path";
import { openDatabase } from "../src/database.ts";
import { migrate } from "../src/migrate.ts";

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL || undefined;
  // The registry's own rule (apps/registry config): a relative REGISTRY_DATA_DIR is meant from
  // where npm was called (INIT_CWD), not from this workspace, which `npm run -w` makes the cwd.
  const dataDir = url
    ? undefined
    : resolve(process.env.INIT_CWD ?? process.cwd(), process.env.REGISTRY_DATA_DIR || ".data");
  const db = await openDatabase({ url, dataDir, poolSize: 1 });
  try {
    const { applied } = await migrate(db);
    for (const name of applied) console.log(`applied ${name}`);
    if (applied.length === 0) console.log(`${db.location}: up to date`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
