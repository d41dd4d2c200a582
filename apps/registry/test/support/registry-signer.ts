import { randomUUID } from "node:crypto";
import { parseSecretKeys } from "@stream-registry/core";
import { queryRows, TEST_SECRET_KEYS } from "@stream-registry/testkit";
import { generateKeyPair, importJWK, SignJWT, type JWTPayload } from "jose";

/** Signs tokens as a registry does, with its own key (read from its database) or another. */
export interface RegistrySigner {
  registryId: string;
  kid: string;
  /**
   * A token from this registry: iss registry:<id>, the given audience, an id, a minute to live,
   * unless `claims` say otherwise (undefined leaves a claim out).
   */
  sign(claims: JWTPayload, options?: { forge?: boolean; kid?: string }): Promise<string>;
}

/**
 * Signs as the registry whose PostgreSQL database is `databaseUrl`: its signing key's seed is
 * unwrapped with the testkit's secrets key, as the registry itself does. `forge` signs with a key
 * of its own instead, under the registry's key id (or `kid`).
 */
export async function registrySigner(databaseUrl: string): Promise<RegistrySigner> {
  const [settings] = await queryRows<{ id: string }>(
    databaseUrl,
    `SELECT registry_id::text AS id FROM registry_settings`,
  );
  const [row] = await queryRows<{ kid: string; public_jwk: Record<string, string>; private_key: never }>(
    databaseUrl,
    `SELECT kid, public_jwk, private_key FROM registry_key WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1`,
  );
  if (!settings || !row) throw new Error("the registry has no settings or no signing key yet");
  const seed = parseSecretKeys(TEST_SECRET_KEYS, "test").unwrap(
    row.private_key,
    JSON.stringify(["registry_key", row.kid]),
  );
  const key = await importJWK({ ...row.public_jwk, d: seed.toString("base64url") }, "EdDSA");
  const forged = (await generateKeyPair("EdDSA", { crv: "Ed25519" })).privateKey;
  const now = () => Math.floor(Date.now() / 1000);
  return {
    registryId: settings.id,
    kid: row.kid,
    sign(claims, options = {}) {
      const body = {
        iss: `registry:${settings.id}`,
        iat: now(),
        exp: now() + 60,
        jti: randomUUID(),
        ...claims,
      };
      return new SignJWT(body)
        .setProtectedHeader({ alg: "EdDSA", kid: options.kid ?? row.kid })
        .sign(options.forge ? forged : key);
    },
  };
}
