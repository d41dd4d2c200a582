import { ErrorCode, userError, type UserError } from "@stream-registry/core";

const MAX_URL_LENGTH = 2_048;

/** A registry's GraphQL URL: absolute, http or https, no credentials in it. */
export function checkRegistryUrl(url: string, field: string[]): UserError | undefined {
  const refuse = (rule: string) => userError(ErrorCode.INVALID_INPUT, field, `registry URL ${rule}`);
  if (url.length > MAX_URL_LENGTH) return refuse(`must have at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse(`"${url}" is not an absolute URL, e.g. "https://registry.example.com/graphql"`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return refuse(`"${url}" must be http or https`);
  }
  if (parsed.username || parsed.password) return refuse("must not hold a user or password");
  return undefined;
}
