import { isSecretKey } from "./secret-keys.ts";

export const REDACTED = "********";

// What a query shows for a secret: the placeholder, followed by the stored value's fingerprint
// (12 hex digits) once it is sealed at rest, e.g. "********:3f9a1c2b7d4e".
const PLACEHOLDER = /^\*{8}(?::[0-9a-f]{12})?$/;
const FINGERPRINTED = /\*{8}:[0-9a-f]{12}/;

// Values that are credentials whatever key they stand under; each whole value is hidden, since
// what surrounds such a credential (a PEM bundle's other blocks, a header line) is rarely worth
// showing and may hold more of it.
// A PEM block of any type: private keys, but also certificates and CSRs (public, but a PEM bundle
// in a config map usually holds the private key beside them).
const PEM = /-----BEGIN [A-Z0-9 ]*-----/;
// An HTTP credential: "Bearer <token68>" or "Basic <base64 of user:password>", in any case.
const AUTH_SCHEME = /(?:^|[^A-Za-z0-9])(bearer|basic)\s+([A-Za-z0-9\-._~+/]+=*)/gi;
// A JWT: base64url header "eyJ..." (a JSON object), payload, and a signature (empty for alg none).
const JWT = /(?:^|[^A-Za-z0-9_-])(eyJ[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/**
 * Whether a value is a credential by its shape, whatever its key: a PEM block, a Bearer token
 * (8 or more characters with a digit or a symbol, so that "Bearer authentication" is prose), a
 * Basic credential (base64 of "user:password"), or a JWT (a header that decodes to JSON with
 * "alg"). A URL with a password is not one: only its password is hidden (redactEmbeddedCredentials).
 */
export function isSecretValue(text: string): boolean {
  if (PEM.test(text)) return true;
  for (const [, scheme, token] of text.matchAll(AUTH_SCHEME)) {
    if (scheme!.toLowerCase() === "basic" ? isBasicCredential(token!) : isBearerToken(token!)) return true;
  }
  for (const [, header] of text.matchAll(JWT)) if (isJwtHeader(header!)) return true;
  return false;
}

// A token has a digit or a symbol; prose ("Bearer authentication.") has neither once its full
// stop is dropped.
function isBearerToken(token: string): boolean {
  const trimmed = token.replace(/\.+$/, "");
  return trimmed.length >= 8 && /[0-9\-_~+/=.]/.test(trimmed);
}

function isBasicCredential(token: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token) || token.length % 4 === 1) return false;
  const decoded = Buffer.from(token, "base64").toString("utf8");
  return /^[^\s:]*:\S*$/.test(decoded) && decoded.length > 1;
}

function isJwtHeader(segment: string): boolean {
  try {
    const header: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return (
      typeof header === "object" && header !== null && typeof (header as { alg?: unknown }).alg === "string"
    );
  } catch {
    return false;
  }
}

/** The placeholder a query shows for a secret, with its fingerprint when it has one. */
export function secretPlaceholder(fingerprint?: string): string {
  return fingerprint === undefined ? REDACTED : `${REDACTED}:${fingerprint}`;
}

/** Whether `text` is exactly a placeholder ("********", or with a fingerprint). */
export function isSecretPlaceholder(text: string): boolean {
  return PLACEHOLDER.test(text);
}

/** Whether `text` holds a fingerprinted placeholder: a sealed value stands there. */
export function holdsSealedPlaceholder(text: string): boolean {
  return FINGERPRINTED.test(text);
}

/** `text` with every fingerprinted placeholder in it made plain ("********"). */
export function withoutFingerprints(text: string): string {
  return text.replace(new RegExp(FINGERPRINTED.source, "g"), REDACTED);
}

// "scheme://user:password@host": the password runs from the first ":" of the authority to its
// last "@". An unencoded "@" or "/" in a password makes URLs ambiguous; reading to the last "@"
// of the whole token errs towards hiding too much (part of the host), never too little.
const URL_PASSWORD = /(:\/\/[^\s:/@]*:)([^\s]*)@/g;

// "password=..." in a query string (?a=b&password=x), a JDBC URL (;password=x) or a libpq
// connection string (host=h password=x): any parameter whose name is a secret key. A quoted
// value runs to its closing quote.
const SECRET_PARAMETER = /(^|[?&;\s])([A-Za-z0-9._-]+)(\s*=\s*)('[^']*'?|"[^"]*"?|[^&;\s]*)/g;

/**
 * A string with the credentials it embeds replaced by `placeholder`, everything else kept: the
 * host and database of a connection URL are what people need to see, and are not secret. A
 * placeholder already there stays as it is, so what a query shows is shown the same again.
 */
export function redactEmbeddedCredentials(text: string, placeholder = REDACTED): string {
  return text
    .replace(URL_PASSWORD, (_match, userPart: string, password: string) => {
      if (password.length === 0) return `${userPart}@`;
      return `${userPart}${isSecretPlaceholder(password) ? password : placeholder}@`;
    })
    .replace(SECRET_PARAMETER, (match, start: string, name: string, equals: string, value: string) => {
      if (!isSecretKey(name) || value.length === 0) return match;
      const quote = /^['"]/.test(value) ? value[0]! : "";
      const inner = quote
        ? value.slice(1, value.endsWith(quote) && value.length > 1 ? -1 : undefined)
        : value;
      return `${start}${name}${equals}${quote}${isSecretPlaceholder(inner) ? inner : placeholder}${quote}`;
    });
}
