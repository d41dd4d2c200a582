import { AuthenticationError } from "./authentication-error.ts";

/**
 * The password of HTTP Basic credentials (RFC 7617), or undefined when `authorization` is not of
 * the Basic scheme. Confluent's serializers authenticate so (`basic.auth.user.info`,
 * @kafkajs/confluent-schema-registry's `auth`): the schema registry takes an API token as the
 * password, whatever the user name.
 */
export function basicPassword(authorization: string): string | undefined {
  const match = /^Basic +([^\s]*) *$/i.exec(authorization);
  if (!match) return undefined;
  const encoded = match[1]!;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    throw new AuthenticationError("malformed Basic credentials: not base64");
  }
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new AuthenticationError('malformed Basic credentials: not "user:password"');
  return decoded.slice(colon + 1);
}
