import { checkConfigMaps, type ConfigMaps, type SecretKeyRule, type UserError } from "@stream-registry/core";

/**
 * A set of config maps as a mutation gives it: a map given as an object replaces the stored map
 * of that name, a map given as null removes it, and maps not named stay (the seed's rule for
 * UPDATE ... WITH CONFIG). null rather than {} marks a removal because an empty map is a real
 * value: a provider may require a map that has no keys (e.g. the test provider's "test.provider").
 */
export interface ConfigMapsChange {
  /** The maps given as objects, checked for shape. */
  maps: ConfigMaps;
  /** The names of the maps given as null. */
  removed: string[];
}

/**
 * Splits a given set into maps and removals and checks its shape; the errors name the field.
 * Names of removed maps follow the rules of map names too. A secret key given as null is left out
 * of its map: since the map replaces the stored one, that clears the secret explicitly. A null
 * value of any other key is refused, naming it.
 */
export function readConfigMapsChange(
  given: unknown,
  field: string[],
  isSecret: SecretKeyRule,
): { change: ConfigMapsChange; errors: UserError[] } {
  const value = withoutClearedSecrets(given, isSecret);
  const removed =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.entries(value)
          .filter(([, map]) => map === null)
          .map(([name]) => name)
      : [];
  // Checked with removals as empty maps, so that their names and the set's limits are checked too.
  const shaped = removed.length === 0 ? value : { ...(value as object), ...emptyMaps(removed) };
  const errors = checkConfigMaps(shaped, field);
  if (errors.length > 0) return { change: { maps: {}, removed: [] }, errors };
  const maps = Object.fromEntries(
    Object.entries(value as ConfigMaps).filter(([name]) => !removed.includes(name)),
  ) as ConfigMaps;
  return { change: { maps, removed }, errors: [] };
}

/** The stored maps with the change applied: stored order kept, new maps after them. */
export function applyConfigMapsChange(stored: ConfigMaps, change: ConfigMapsChange): ConfigMaps {
  const result: ConfigMaps = {};
  for (const [name, map] of Object.entries(stored)) {
    if (change.removed.includes(name)) continue;
    result[name] = Object.hasOwn(change.maps, name) ? change.maps[name]! : map;
  }
  for (const [name, map] of Object.entries(change.maps)) {
    if (!Object.hasOwn(result, name)) result[name] = map;
  }
  return result;
}

/** Leaves out the secret keys given as null; a null anywhere else stays, for the shape check to refuse. */
function withoutClearedSecrets(value: unknown, isSecret: SecretKeyRule): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, map]) => [
      name,
      isObject(map)
        ? Object.fromEntries(
            Object.entries(map).filter(([key, entry]) => entry !== null || !isSecret(name, key)),
          )
        : map,
    ]),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function emptyMaps(names: string[]): ConfigMaps {
  return Object.fromEntries(names.map((name) => [name, {}]));
}
