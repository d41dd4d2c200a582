import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/**
 * Envelope encryption of secrets at rest, AES-256-GCM throughout (node:crypto; no dependency).
 * Key-encryption keys (KEKs, configured, named by a key id) wrap each object's random data key;
 * the data key encrypts that object's secret values. Associated data binds every ciphertext to
 * where it belongs, so one copied to another object or key does not decrypt.
 */

export const SECRET_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const FINGERPRINT_HEX = 12;

/** A key-encryption key and its id. */
export interface SecretKey {
  readonly kid: string;
  readonly key: Buffer;
}

/** One AES-256-GCM encryption, each part base64. */
export interface Sealed {
  iv: string;
  data: string;
  tag: string;
}

/** A data key wrapped by the key-encryption key `kid`. */
export interface WrappedKey extends Sealed {
  kid: string;
}

/** Why a ciphertext was refused. The message never holds key material or plaintext. */
export class SecretBoxError extends Error {
  constructor(
    readonly reason: "unknown-key" | "tampered",
    message: string,
  ) {
    super(message);
    this.name = "SecretBoxError";
  }
}

/** The configured key-encryption keys: the first wraps new data keys, every one unwraps. */
export class Keyring {
  readonly keys: readonly SecretKey[];

  constructor(keys: readonly SecretKey[]) {
    if (keys.length === 0) throw new Error("a keyring needs at least one key");
    const seen = new Set<string>();
    for (const { kid, key } of keys) {
      if (!KEY_ID.test(kid)) throw new Error(`key id ${JSON.stringify(kid)} ${KEY_ID_RULE}`);
      if (seen.has(kid)) throw new Error(`key id "${kid}" is given twice`);
      if (key.length !== SECRET_KEY_BYTES) {
        throw new Error(`key "${kid}" has ${key.length} bytes; it must have ${SECRET_KEY_BYTES}`);
      }
      seen.add(kid);
    }
    this.keys = keys.map(({ kid, key }) => ({ kid, key: Buffer.from(key) }));
  }

  /** The key new data keys are wrapped with. */
  get current(): SecretKey {
    return this.keys[0]!;
  }

  kids(): string[] {
    return this.keys.map((k) => k.kid);
  }

  has(kid: string): boolean {
    return this.keys.some((k) => k.kid === kid);
  }

  private find(kid: string): Buffer {
    const found = this.keys.find((k) => k.kid === kid);
    if (!found) {
      throw new SecretBoxError(
        "unknown-key",
        `it is wrapped with key id "${kid}", which is not configured (configured: ${this.kids().join(", ")}); ` +
          `add that key to REGISTRY_SECRET_KEYS`,
      );
    }
    return found.key;
  }

  /** Wraps a data key with the current key; `owner` (the object's identity) is bound to it. */
  wrap(dataKey: Buffer, owner: string): WrappedKey {
    const { kid, key } = this.current;
    return { kid, ...seal(key, dataKey, wrapAad(kid, owner)) };
  }

  unwrap(wrapped: WrappedKey, owner: string): Buffer {
    const dataKey = open(this.find(wrapped.kid), wrapped, wrapAad(wrapped.kid, owner), "its data key");
    if (dataKey.length !== SECRET_KEY_BYTES) throw tampered("its data key");
    return dataKey;
  }

  /** The same data key wrapped with the current key (rotation): values sealed under it stay valid. */
  rewrap(wrapped: WrappedKey, owner: string): WrappedKey {
    return this.wrap(this.unwrap(wrapped, owner), owner);
  }
}

const KEY_ID_RULE = 'must be 1 to 64 letters, digits, ".", "_" or "-"';

/** A new random key-encryption key, e.g. for a generated key file. */
export function generateSecretKey(kid: string): SecretKey {
  return { kid, key: randomBytes(SECRET_KEY_BYTES) };
}

/** "kid:base64": the form REGISTRY_SECRET_KEYS takes. */
export function formatSecretKey({ kid, key }: SecretKey): string {
  return `${kid}:${key.toString("base64")}`;
}

/**
 * Parses "kid:base64[,kid:base64...]" (commas or line breaks between entries, blank lines and
 * "#" comment lines ignored). Errors name the entry and its rule, never its key material.
 */
export function parseSecretKeys(text: string, source: string): Keyring {
  const entries = text
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .flatMap((line) => line.split(","))
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0) throw new Error(`${source} holds no key; expected "kid:base64-of-32-bytes"`);
  const keys = entries.map((entry, index) => {
    const at = `${source}: entry ${index + 1}`;
    const colon = entry.indexOf(":");
    if (colon < 0) throw new Error(`${at} must be "kid:base64-of-32-bytes"`);
    const kid = entry.slice(0, colon).trim();
    const encoded = entry.slice(colon + 1).trim();
    if (!KEY_ID.test(kid)) throw new Error(`${at}: its key id ${KEY_ID_RULE}`);
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) {
      throw new Error(`${at} (key id "${kid}"): the key must be base64`);
    }
    const key = Buffer.from(encoded, encoded.includes("-") || encoded.includes("_") ? "base64url" : "base64");
    if (key.length !== SECRET_KEY_BYTES) {
      throw new Error(
        `${at} (key id "${kid}"): the key has ${key.length} bytes; it must have ${SECRET_KEY_BYTES} ` +
          `(e.g. openssl rand -base64 32)`,
      );
    }
    return { kid, key };
  });
  try {
    return new Keyring(keys);
  } catch (error) {
    throw new Error(`${source}: ${(error as Error).message}`);
  }
}

/** A new random data key for one object. */
export function newDataKey(): Buffer {
  return randomBytes(SECRET_KEY_BYTES);
}

/** Encrypts `text` under an object's data key; `aad` names where it belongs. */
export function sealText(dataKey: Buffer, text: string, aad: string): Sealed {
  return seal(dataKey, Buffer.from(text, "utf8"), aad);
}

export function openText(dataKey: Buffer, sealed: Sealed, aad: string): string {
  return open(dataKey, sealed, aad, "the value").toString("utf8");
}

/**
 * A short keyed digest of a value: equal for the same value at the same place of the same object,
 * telling nothing of the value to whoever lacks the data key (no offline guessing, no comparing
 * across objects).
 */
export function fingerprint(dataKey: Buffer, text: string, aad: string): string {
  return createHmac("sha256", dataKey)
    .update(`${aad}\u0000${text}`, "utf8")
    .digest("hex")
    .slice(0, FINGERPRINT_HEX);
}

function seal(key: Buffer, plaintext: Buffer, aad: string): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return {
    iv: iv.toString("base64"),
    data: data.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
  };
}

function open(key: Buffer, sealed: Sealed, aad: string, what: string): Buffer {
  const iv = decode(sealed.iv);
  const tag = decode(sealed.tag);
  const data = decode(sealed.data);
  if (iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || data === undefined) throw tampered(what);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]);
  } catch {
    throw tampered(what);
  }
}

function decode(value: unknown): Buffer | undefined {
  return typeof value === "string" && /^[A-Za-z0-9+/]*={0,2}$/.test(value)
    ? Buffer.from(value, "base64")
    : undefined;
}

function tampered(what: string): SecretBoxError {
  return new SecretBoxError(
    "tampered",
    `${what} failed authentication: the stored ciphertext was altered, moved from another object, or wrapped with another key under the same id`,
  );
}

function wrapAad(kid: string, owner: string): string {
  return JSON.stringify(["data-key", kid, owner]);
}
