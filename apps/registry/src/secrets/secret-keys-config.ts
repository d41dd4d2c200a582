import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseSecretKeys, type Keyring } from "@stream-registry/core";

/** The keys secrets are sealed with at rest, as configured (docs/operations.md, "Secrets at rest"). */
export interface SecretKeysConfig {
  /** Undefined: none configured; start-up generates one for the embedded PGlite default. */
  keyring: Keyring | undefined;
  /** Where they came from, for the log: the variable, or the file. */
  source: string | undefined;
}

const unsetIfEmpty = (value: unknown) => (value === "" ? undefined : value);

/** The environment variables of secrets at rest, merged into config.ts's schema. */
export const secretKeysEnv = {
  // "kid:base64-of-32-bytes[,kid:...]": the first seals, every one opens.
  REGISTRY_SECRET_KEYS: z.preprocess(unsetIfEmpty, z.string().optional()),
  REGISTRY_SECRET_KEYS_FILE: z.preprocess(unsetIfEmpty, z.string().optional()),
};

type SecretKeysEnv = z.infer<z.ZodObject<typeof secretKeysEnv>>;

/** The configured keys; throws naming the variable and its rule, never a key's material. */
export function secretKeysFrom(e: SecretKeysEnv, cwd: string): SecretKeysConfig {
  const fail = (message: string) => new Error(`invalid configuration:\n  ${message}`);
  if (e.REGISTRY_SECRET_KEYS !== undefined && e.REGISTRY_SECRET_KEYS_FILE !== undefined) {
    throw fail("REGISTRY_SECRET_KEYS_FILE: set it or REGISTRY_SECRET_KEYS, not both");
  }
  try {
    if (e.REGISTRY_SECRET_KEYS !== undefined) {
      return {
        keyring: parseSecretKeys(e.REGISTRY_SECRET_KEYS, "REGISTRY_SECRET_KEYS"),
        source: "REGISTRY_SECRET_KEYS",
      };
    }
    if (e.REGISTRY_SECRET_KEYS_FILE !== undefined) {
      const file = path.resolve(cwd, e.REGISTRY_SECRET_KEYS_FILE);
      return { keyring: readSecretKeysFile(file, "REGISTRY_SECRET_KEYS_FILE"), source: file };
    }
  } catch (error) {
    throw fail((error as Error).message);
  }
  return { keyring: undefined, source: undefined };
}

/** Reads a key file: "kid:base64" entries, one a line (or by commas), "#" comments. */
export function readSecretKeysFile(file: string, variable: string): Keyring {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`${variable}: cannot read ${file}: ${(error as Error).message}`);
  }
  return parseSecretKeys(text, `${variable} (${file})`);
}
