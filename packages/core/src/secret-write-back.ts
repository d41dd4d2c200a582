import type { ConfigMaps, ConfigValue } from "./config-maps.ts";
import { ErrorCode, userError, type UserError } from "./errors.ts";
import { quote } from "./quote.ts";
import { REDACTED, withoutFingerprints } from "./secret-values.ts";
import { redactValue, type SecretKeyRule } from "./secrets.ts";

/**
 * Puts stored values back where the given maps hold exactly what a query shows for them: a client
 * that reads an object and writes it back (changing something else) keeps its secrets instead of
 * storing the placeholder. The placeholder without its fingerprint ("********") keeps the stored
 * value too, whatever it is; with a fingerprint, only the value that has it (a secret changed
 * since it was read is not silently kept). A value with the placeholder that is not what a query
 * shows for the stored value (nothing stored, another fingerprint, or a URL edited around its
 * hidden password) is refused, naming the field: the registry cannot know what it stands for.
 * Clearing a secret is leaving its key out (or giving it null), since a given map replaces the
 * stored one. `stored` may be what is stored in clear or as sealed (placeholders with fingerprints).
 */
export function keepStoredSecrets(
  given: ConfigMaps,
  stored: ConfigMaps,
  rule: SecretKeyRule,
  field: readonly string[],
): { maps: ConfigMaps; errors: UserError[] } {
  const errors: UserError[] = [];
  const maps = Object.fromEntries(
    Object.entries(given).map(([name, map]) => {
      const storedMap = own(stored, name);
      const entries = Object.entries(map).map(([key, value]) => {
        if (typeof value !== "string" || !value.includes(REDACTED)) return [key, value] as const;
        const storedValue = storedMap && own(storedMap, key);
        const shown = storedValue === undefined ? undefined : redactValue(name, key, storedValue, rule);
        if (shown === value || (typeof shown === "string" && withoutFingerprints(shown) === value)) {
          return [key, storedValue!] as const;
        }
        errors.push(placeholderError([...field, name, key], name, key, storedValue));
        return [key, value] as const;
      });
      return [name, Object.fromEntries(entries)];
    }),
  );
  return { maps, errors };
}

function placeholderError(
  field: string[],
  map: string,
  key: string,
  stored: ConfigValue | undefined,
): UserError {
  const why =
    stored === undefined
      ? "but nothing is stored under that key to keep; give the value itself"
      : "but it is not what a query shows for the stored value (if it carries a fingerprint, the secret " +
        "changed since it was read); give the whole new value";
  return userError(
    ErrorCode.INVALID_INPUT,
    field,
    `config map ${quote(map)} key ${quote(key)} holds the redaction placeholder "${REDACTED}", ` +
      `which stands for the stored secret, ${why}`,
  );
}

// Own properties only, so a map or key named "constructor" never reads Object.prototype.
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
