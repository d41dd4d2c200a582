// `npm run admin:reset-token`: the way back from a lost admin token (docs/security.md, "The first
// admin token"). Run on the registry's own machine with the registry's DATABASE_URL or
// REGISTRY_DATA_DIR; prints the new value on stdout, once, and nothing else there.
import { resetAdminToken } from "../src/auth/reset-admin-token.ts";
import { loadConfig } from "../src/config.ts";
import { refusalMessage } from "../src/operator-error.ts";

try {
  // Paths in the environment are meant from where npm was called (INIT_CWD), as for `npm start`.
  const config = loadConfig(process.env, process.env.INIT_CWD ?? process.cwd());
  const { value, database } = await resetAdminToken(config);
  console.error(`admin:reset-token: ${database}: the token admin was revoked and made again with this value`);
  console.log(value);
} catch (error) {
  console.error(`admin:reset-token: ${refusalMessage(error) ?? (error as Error).message}`);
  process.exitCode = 1;
}
