import { isSecretKey } from "./secret-keys.ts";

export const REDACTED = "********";

// "scheme://user:password@host": the password runs from the first ":" of the authority to its
// last "@". An unencoded "@" or "/" in a password makes URLs ambiguous; reading to the last "@"
// of the whole token errs towards hiding too much (part of the host), never too little.
const URL_PASSWORD = /(:\/\/[^\s:/@]*:)([^\s]*)@/g;

// "password=..." in a query string (?a=b&password=x), a JDBC URL (;password=x) or a libpq
// connection string (host=h password=x): any parameter whose name is a secret key. A quoted
// value runs to its closing quote.
const SECRET_PARAMETER = /(^|[?&;\s])([A-Za-z0-9._-]+)(\s*=\s*)('[^']*'?|"[^"]*"?|[^&;\s]*)/g;

/**
 * A string with the credentials it embeds replaced by the placeholder, everything else kept:
 * the host and database of a connection URL are what people need to see, and are not secret.
 */
export function redactEmbeddedCredentials(text: string): string {
  return text
    .replace(URL_PASSWORD, (_match, userPart: string, password: string) =>
      password.length === 0 ? `${userPart}@` : `${userPart}${REDACTED}@`,
    )
    .replace(SECRET_PARAMETER, (match, start: string, name: string, equals: string, value: string) => {
      if (!isSecretKey(name) || value.length === 0) return match;
      const quote = /^['"]/.test(value) ? value[0] : "";
      return `${start}${name}${equals}${quote}${REDACTED}${quote}`;
    });
}
