// `npm run db:template` (run by `npm install`'s postinstall): makes the PGlite data directory a
// registry's first start copies instead of running initdb and the migrations (src/pglite-template.ts).
// A failure only costs that time, so it warns and exits 0: an install never fails for it.
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { openDatabase } from "../src/database.ts";
import { migrate } from "../src/migrate.ts";
import { holdsDatabase, pgliteTemplateDir } from "../src/pglite-template.ts";

try {
  const dir = await pgliteTemplateDir();
  if (holdsDatabase(dir)) {
    console.log(`PGlite template present: ${dir}`);
  } else {
    // Made aside and renamed into place: installs running at once never see half of one.
    const making = `${dir}.${process.pid}.tmp`;
    await mkdir(path.dirname(dir), { recursive: true });
    try {
      const db = await openDatabase({ dataDir: making });
      await migrate(db).finally(() => db.close());
      await rename(making, dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
      });
    } finally {
      await rm(making, { recursive: true, force: true });
    }
    console.log(`PGlite template made: ${dir}`);
  }
  // Templates of another PGlite or older migrations (not one being made: those end in .tmp).
  for (const name of await readdir(path.dirname(dir))) {
    const other = path.join(path.dirname(dir), name);
    if (other !== dir && name.startsWith("pglite-") && !name.endsWith(".tmp")) {
      await rm(other, { recursive: true, force: true });
    }
  }
} catch (error) {
  console.warn(`PGlite template not made (first starts run initdb instead): ${(error as Error).message}`);
}
