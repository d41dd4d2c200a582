/**
 * What the registry's log never holds: credentials. A caller may put one anywhere it can (a token
 * in a query string, a password in a URL it gives); the log keeps where things went and drops the
 * values (docs/operations.md, "Logs").
 */

export const LOG_REDACTED = "[redacted]";

/** Headers whose values are credentials, wherever a logged object holds headers. */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"];

/** pino's `redact` paths: credential headers of requests, answers and calls logged as objects. */
export const REDACTED_LOG_PATHS = ["headers", "req.headers", "res.headers", "*.headers"].flatMap((at) =>
  CREDENTIAL_HEADERS.map((name) => `${at}["${name}"]`),
);

// The value of every query parameter (names are kept: they say what was asked): after "?" or "&",
// a name, "=", and the value up to the next "&", "#", quote, backslash or space.
const QUERY_VALUE = /([?&][^=&#\s"'\\?]{1,100}=)[^&#\s"'\\]+/g;
// "scheme://user:password@": the password (user info runs to the "@" before the host).
const URL_PASSWORD = /(:\/\/[^\s:/@"'\\]*:)[^\s/@"'\\]+@/g;
// An HTTP credential: "Bearer <token68>", "Basic <base64>" (any case).
const AUTH_SCHEME = /\b(bearer|basic)(\s+)[A-Za-z0-9\-._~+/]{6,}=*/gi;
// An API token's value (srt_ and base64url), wherever it stands.
const API_TOKEN = /\bsrt_[A-Za-z0-9_-]{8,}/g;

/**
 * Text with the credentials it may hold redacted: query parameter values, passwords in URLs,
 * Bearer and Basic credentials and API token values. Applied to every line the logger writes, as
 * the last step: a message or an error's text may quote what a caller sent.
 */
export function redactText(text: string): string {
  return text
    .replace(QUERY_VALUE, `$1${LOG_REDACTED}`)
    .replace(URL_PASSWORD, `$1${LOG_REDACTED}@`)
    .replace(AUTH_SCHEME, `$1$2${LOG_REDACTED}`)
    .replace(API_TOKEN, `srt_${LOG_REDACTED}`);
}
