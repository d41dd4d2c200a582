import type { ConfigMaps, ConfigValue } from "./config-maps.ts";
import { isSecretKey } from "./secret-keys.ts";
import { isSecretPlaceholder, REDACTED, redactEmbeddedCredentials } from "./secret-values.ts";

export { isSecretKey, keyWords } from "./secret-keys.ts";
export {
  holdsSealedPlaceholder,
  isSecretPlaceholder,
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
 * What may be shown of one value: the placeholder for a secret key's value (of any type), the
 * value with its embedded credentials replaced for any other string, other values as they are.
 * A value that is already what a query shows (a placeholder with the fingerprint of a sealed
 * value, as stored, or as a child registry answered) stays as it is.
 */
export function redactValue(map: string, key: string, value: ConfigValue, rule: SecretKeyRule): ConfigValue {
  if (rule(map, key)) return typeof value === "string" && isSecretPlaceholder(value) ? value : REDACTED;
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
