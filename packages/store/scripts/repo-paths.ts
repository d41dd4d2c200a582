import { join } from "node:path";
import { fileURLToPath } from "node:url";

// `npm run -w` runs scripts with the workspace as cwd, so paths are anchored on this file instead.
export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
export const schemaPath = join(repoRoot, "prisma", "schema.prisma");
