/**
 * The key-encryption key every registry on PostgreSQL that the testkit starts seals secrets with
 * (REGISTRY_SECRET_KEYS): PostgreSQL registries refuse to start without one. Registries on PGlite
 * are given none and generate theirs in their data directory at first start, as users' do.
 */
export const TEST_SECRET_KEYS = `testkit:${Buffer.from("stream-registry-testkit-kek-0001").toString("base64")}`;

/** Where a test registry's data lives: its PostgreSQL database (with the key), or a PGlite directory. */
export function databaseEnv(url: string | undefined, dataDir: string | undefined): Record<string, string> {
  if (url) return { DATABASE_URL: url, REGISTRY_SECRET_KEYS: TEST_SECRET_KEYS };
  return dataDir ? { REGISTRY_DATA_DIR: dataDir } : {};
}
