/**
 * Which config keys hold secrets, by name. A key is secret when its last word(s) name a
 * credential: "db_password", "client.secret", "apiKey", "sasl.kerberos.keytab". A key that
 * describes a secret rather than holding one ends in another word and stays visible:
 * "password.encoder.keylength", "token.expiry.ms", "ssl.keystore.location",
 * "basic.auth.credentials.source". Words are split at any separator and at camelCase humps, so
 * "PASSWORD", "db_password", "dbPassword" and "db-password" are one spelling; a whole word is
 * never matched inside another ("passthrough", "bypass", "oauth.flow" stay visible).
 */

// Last words that are a credential on their own; also matched as the end of a glued word
// ("dbpassword", "accesstoken"), where they are too long to occur by accident.
const SECRET_ENDINGS = [
  "password",
  "passwords",
  "passwd",
  "passphrase",
  "secret",
  "secrets",
  "token",
  "tokens",
  "credential",
  "credentials",
  "authorization",
  "keytab",
  "signature",
];

// Too short or too common to match inside a glued word ("cwd", "compass", "oauth",
// "incredible"), so whole last words only.
const SECRET_WORDS = new Set(["pwd", "pass", "jaas", "auth", "cred", "creds", "private"]);

// Last two words that name a mode, not a credential: Kafka's "ssl.client.auth" is
// required|requested|none.
const NOT_SECRET_PAIRS = new Set(["client auth"]);

// "key" alone is everywhere in Kafka (key.serializer, partition.key, message.key.field); it is a
// credential only after one of these words, or glued to one ("apikey", "SharedAccessKey").
const KEY_QUALIFIERS = new Set([
  "api",
  "private",
  "access",
  "secret",
  "account",
  "signing",
  "encryption",
  "master",
  "hmac",
  "ssh",
  "ssl",
  "keystore",
]);

/** A key's words, lowercase: split at any non-alphanumeric character and at camelCase humps. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Secrets are write-only: the registry must be able to store them but never show them back. */
export function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  const last = words.at(-1);
  if (last === undefined) return false;
  const previous = words.at(-2);
  if (previous !== undefined && NOT_SECRET_PAIRS.has(`${previous} ${last}`)) return false;
  if (SECRET_WORDS.has(last) || SECRET_ENDINGS.some((ending) => last.endsWith(ending))) return true;
  // "sasl.jaas.config": a JAAS login line carries the password.
  if (last === "config" && previous === "jaas") return true;
  // "basic.auth.user.info": "user:password" of a schema registry.
  if (last === "info" && previous === "user" && words.at(-3) === "auth") return true;
  if (last === "key") return previous !== undefined && KEY_QUALIFIERS.has(previous);
  return [...KEY_QUALIFIERS].some((qualifier) => last === `${qualifier}key`);
}

/**
 * A matcher for keys declared secret beyond core's rule (REGISTRY_SECRET_KEY_NAMES): each name
 * matches a key whose last words are its words, in any case and with any separators, so
 * "session.cookie" declares "session.cookie", "http.sessionCookie" and "SESSION_COOKIE".
 */
export function declaredSecretKeys(names: readonly string[]): (key: string) => boolean {
  const declared = names.map(keyWords).filter((words) => words.length > 0);
  if (declared.length === 0) return () => false;
  return (key) => {
    const words = keyWords(key);
    return declared.some(
      (tail) =>
        tail.length <= words.length &&
        tail.every((word, i) => words[words.length - tail.length + i] === word),
    );
  };
}
