import { createHash, randomBytes } from "node:crypto";

/** What every API token starts with: a token found in a log or a repository is recognizable. */
export const API_TOKEN_PREFIX = "srt_";

/** "srt_" and at least 32 base64url characters (a new token has 43: 32 random bytes). */
const TOKEN_SHAPE = /^srt_[A-Za-z0-9_-]{32,}$/;

/** A new token's value: "srt_" + 32 random bytes, base64url. */
export function newApiTokenValue(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** Whether `value` has the shape of an API token (not whether it is one). */
export function isApiTokenShape(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/**
 * How a token is stored and looked up: its SHA-256, base64url. A token has 256 bits of entropy, so
 * a fast hash is right (a slow one protects guessable secrets, and makes every request slow).
 */
export function hashApiToken(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("base64url");
}
