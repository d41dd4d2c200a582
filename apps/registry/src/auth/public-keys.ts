import type { PublicJwk } from "@stream-registry/store";

/** Keys a registry may publish at once: the signing one and those retired recently. */
const MAX_KEYS = 8;
const KID = /^[A-Za-z0-9_-]{1,128}$/;
const X = /^[A-Za-z0-9_-]{43}$/;

/**
 * What is wrong with public keys another registry sent (its registration, its answer of itself),
 * or undefined: at most 8 Ed25519 public JWKs, each with a key id, and no private part.
 */
export function checkPublicKeys(keys: unknown): string | undefined {
  if (!Array.isArray(keys) || keys.length > MAX_KEYS)
    return `keys must be a list of at most ${MAX_KEYS} JWKs`;
  for (const [i, key] of keys.entries()) {
    const k = key as Partial<Record<string, unknown>> | null;
    if (typeof k !== "object" || k === null) return `key ${i + 1} is not a JWK`;
    if ("d" in k) return `key ${i + 1} holds a private key; send the public key only`;
    if (k.kty !== "OKP" || k.crv !== "Ed25519" || typeof k.x !== "string" || !X.test(k.x)) {
      return `key ${i + 1} is not an Ed25519 public key (kty OKP, crv Ed25519, x)`;
    }
    if (typeof k.kid !== "string" || !KID.test(k.kid)) return `key ${i + 1} has no key id (kid)`;
  }
  return undefined;
}

/** The keys as stored: only the public fields of each. */
export function publicKeysOf(keys: readonly Record<string, unknown>[]): PublicJwk[] {
  return keys.map((k) => ({
    kty: String(k.kty),
    crv: String(k.crv),
    x: String(k.x),
    kid: String(k.kid),
    alg: "EdDSA",
    use: "sig",
  }));
}
