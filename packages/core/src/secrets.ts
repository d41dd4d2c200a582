import type { ConfigMaps, ConfigValue } from "./config-maps.ts";
import { isSecretKey } from "./secret-keys.ts";
import { isSecretPlaceholder, isSecretValue, REDACTED, redactEmbeddedCredentials } from "./secret-values.ts";

export { declaredSecretKeys, isSecretKey, keyWords } from "./secret-keys.ts";
export {
  holdsSealedPlaceholder,
  isSecretPlaceholder,
  isSecretValue,
  REDACTED,
  redactEmbeddedCredentials,
  secretPlaceholder,
} from "./secret-values.ts";

/**
 * Whether `key` of config map `map` holds a secret. The registry's rule is core's `isSecretKey`
 * plus the keys loaded providers declare secret in the maps they own.
 */
export type SecretKeyRule = (map: string, key: string) => boolean;

export const coreSecretRule: SecretKeyRule = (_map, key) => isSecretKey(key);

/**
 * The one decision "is this value a secret", by where it stands and what it is: the value of a
 * secret key (core's spellings, a provider's or an admin's declared keys; of any type), or a
 * string shaped like a credential whatever its key (a PEM block, a Bearer or Basic credential, a
 * JWT). Such a value is hidden whole; other strings only lose the credentials they embed (a URL's
 * password, "password=..." parameters). Everything that redacts, seals or writes back asks here.
 */
export function isSecret(map: string, key: string, value: ConfigValue, rule: SecretKeyRule): boolean {
  return rule(map, key) || (typeof value === "string" && isSecretValue(value));
}

/**
 * What may be shown of one value: the placeholder for a secret (`isSecret`), the value with its
 * embedded credentials replaced for any other string, other values as they are.
 * A value that is already what a query shows (a placeholder with the fingerprint of a sealed
 * value, as stored, or as a child registry answered) stays as it is.
 */
export function redactValue(map: string, key: string, value: ConfigValue, rule: SecretKeyRule): ConfigValue {
  if (typeof value === "string" && isSecretPlaceholder(value)) return value;
  if (isSecret(map, key, value, rule)) return REDACTED;
  return typeof value === "string" ? redactEmbeddedCredentials(value) : value;
}

/** The maps as they may be shown: order kept, input untouched. */
export function redactSecrets(maps: ConfigMaps, rule: SecretKeyRule = coreSecretRule): ConfigMaps {
  return Object.fromEntries(
    Object.entries(maps).map(([name, map]) => [
      name,
      Object.fromEntries(
        Object.entries(map).map(([key, value]) => [key, redactValue(name, key, value, rule)]),
      ),
    ]),
  );
}

/**
 * Whether the maps carry a secret in clear (one that would be shown redacted), rather than only
 * placeholders and public values. Such an update always counts as a change: skipping it when the
 * secret equals the stored one would tell the caller that its guess was right.
 */
export function givesSecrets(maps: ConfigMaps, rule: SecretKeyRule = coreSecretRule): boolean {
  return Object.entries(maps).some(([name, map]) =>
    Object.entries(map).some(([key, value]) => redactValue(name, key, value, rule) !== value),
  );
}

const CONFIG_FIELDS = ["config", "producerConfig", "consumerConfig"] as const;

/**
 * A stored copy of an object (a change-log entry's data, a discovery-index document) as it may be
 * shown: its config maps redacted again by today's rule, since copies written before a value
 * counted as secret (an older rule, a provider loaded since) may hold it in clear. Redacting what
 * is already redacted changes nothing, so `redactDocument(x) !== x` only when something was hidden.
 */
export function redactDocument(data: unknown, rule: SecretKeyRule): unknown {
  if (!isJsonObject(data)) return data;
  let shown: Record<string, unknown> | undefined;
  for (const field of CONFIG_FIELDS) {
    const maps = data[field];
    if (!isJsonObject(maps) || !Object.values(maps).every(isJsonObject)) continue;
    if (!givesSecrets(maps as ConfigMaps, rule)) continue;
    (shown ??= { ...data })[field] = redactSecrets(maps as ConfigMaps, rule);
  }
  return shown ?? data;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
