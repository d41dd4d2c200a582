// `npm run secrets:rotate`: rewraps the data key of every object with secrets with the first key of
// REGISTRY_SECRET_KEYS (or REGISTRY_SECRET_KEYS_FILE, or the PGlite data directory's key file), in
// the database the registry is configured with (DATABASE_URL or REGISTRY_DATA_DIR), and says which
// key ids are still in use. docs/operations.md, "Secrets at rest", has the whole procedure.
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logger.ts";
import { rotateSecrets } from "../src/secrets/rotate.ts";

// Paths in the environment are meant from where npm was called (INIT_CWD), as for `npm start`.
const config = loadConfig(process.env, process.env.INIT_CWD ?? process.cwd());
try {
  process.exitCode = await rotateSecrets(config, createLogger("warn"), (line) => console.log(line));
} catch (error) {
  console.error(`secrets:rotate: ${(error as Error).message}`);
  process.exitCode = 1;
}
