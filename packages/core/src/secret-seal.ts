import type { ConfigMaps, ConfigValue } from "./config-maps.ts";
import { fingerprint, openText, SecretBoxError, sealText, type Sealed } from "./secret-box.ts";
import { holdsSealedPlaceholder, redactEmbeddedCredentials, secretPlaceholder } from "./secret-values.ts";
import { isSecret, redactValue, type SecretKeyRule } from "./secrets.ts";

/**
 * Config maps as stored at rest: every value a query would not show as it is (a secret key's
 * value, a string with credentials in it) is sealed whole under the object's data key, and what
 * is stored in its place is what a query shows, with the fingerprint of the sealed value. Reading
 * what is stored therefore never needs a key; only what connects somewhere opens it.
 */

/** The object a secret belongs to: its kind and its row id, which never change. */
export interface SecretOwner {
  kind: string;
  id: string;
}

/** An object's sealed values, by set of maps ("config", "producerConfig", ...), map and key. */
export type SealedValues = Record<string, Record<string, Record<string, Sealed>>>;

/** An object's sets of config maps, by set name; a cluster has one, "config". */
export type ConfigSets = Record<string, ConfigMaps>;

/** The identity a data key is bound to. */
export function ownerIdentity(owner: SecretOwner): string {
  return JSON.stringify([owner.kind, owner.id]);
}

/** Where a value belongs: its associated data, so it does not decrypt anywhere else. */
function valueAad(owner: SecretOwner, set: string, map: string, key: string): string {
  return JSON.stringify([owner.kind, owner.id, set, map, key]);
}

/** Whether a value is in clear but must not be: a query would show it otherwise. */
export function isClearSecret(map: string, key: string, value: ConfigValue, rule: SecretKeyRule): boolean {
  return redactValue(map, key, value, rule) !== value;
}

/** Whether any set holds a value in clear that must be sealed. */
export function holdsClearSecrets(sets: ConfigSets, rule: SecretKeyRule): boolean {
  return Object.values(sets).some((maps) =>
    Object.entries(maps).some(([map, values]) =>
      Object.entries(values).some(([key, value]) => isClearSecret(map, key, value, rule)),
    ),
  );
}

/**
 * Seals the clear values of `sets` under `dataKey`: returns what is stored in the config columns
 * (placeholders with fingerprints where values were sealed, everything else as given) and the
 * sealed values. Values already placeholders (nothing to seal) are left as they are.
 */
export function sealConfigSets(
  sets: ConfigSets,
  rule: SecretKeyRule,
  dataKey: Buffer,
  owner: SecretOwner,
): { shown: ConfigSets; sealed: SealedValues; count: number } {
  const sealed: SealedValues = {};
  let count = 0;
  const shown = mapSets(sets, (set, map, key, value) => {
    if (!isClearSecret(map, key, value, rule)) return value;
    const aad = valueAad(owner, set, map, key);
    const text = JSON.stringify(value);
    const box = sealText(dataKey, text, aad);
    ((sealed[set] ??= {})[map] ??= {})[key] = box;
    count++;
    // Of this write of the value (its random iv in it): a value given again shows a new
    // fingerprint, so that no answer tells whether a guess matched the stored secret.
    const placeholder = secretPlaceholder(fingerprint(dataKey, text, `${aad}\u0000${box.iv}`));
    return isSecret(map, key, value, rule)
      ? placeholder
      : redactEmbeddedCredentials(value as string, placeholder);
  });
  return { shown, sealed, count };
}

/** A sealed value that could not be opened, and why. */
export interface UnreadableSecret {
  set: string;
  map: string;
  key: string;
  reason: string;
}

/** Some sealed values are needed and cannot be opened; names each, never a value. */
export class UnreadableSecrets extends Error {
  constructor(
    readonly secrets: UnreadableSecret[],
    what: string,
  ) {
    super(
      `${what}: ${secrets
        .map(({ map, key, reason }) => `secret config "${map}"."${key}" cannot be decrypted: ${reason}`)
        .join("; ")}`,
    );
    this.name = "UnreadableSecrets";
  }
}

/**
 * The sets as a provider needs them: each placeholder that stands for a sealed value replaced by
 * that value. `dataKey` is a function, so that sets with nothing sealed never need the key (nor
 * fail when it cannot be unwrapped); it throws a SecretBoxError. A value given anew in place of a
 * sealed one (no placeholder there) is not opened. Throws UnreadableSecrets naming every value
 * that cannot be opened, or whose sealed value is missing.
 */
export function openConfigSets(
  shown: ConfigSets,
  sealed: SealedValues,
  dataKey: () => Buffer,
  owner: SecretOwner,
  what: string,
): ConfigSets {
  const problems: UnreadableSecret[] = [];
  let key: Buffer | undefined;
  let keyProblem: string | undefined;
  const opened = mapSets(shown, (set, map, name, value) => {
    if (typeof value !== "string" || !holdsSealedPlaceholder(value)) return value;
    const entry = own(own(own(sealed, set), map), name);
    if (!entry) {
      problems.push({ set, map, key: name, reason: "its sealed value is missing" });
      return value;
    }
    try {
      if (!key && !keyProblem) key = dataKey();
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      keyProblem = error.message;
    }
    if (!key) {
      problems.push({ set, map, key: name, reason: keyProblem! });
      return value;
    }
    try {
      return JSON.parse(openText(key, entry, valueAad(owner, set, map, name))) as ConfigValue;
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      problems.push({ set, map, key: name, reason: error.message });
      return value;
    }
  });
  if (problems.length > 0) throw new UnreadableSecrets(problems, what);
  return opened;
}

/** Whether any set holds a placeholder standing for a sealed value. */
export function holdsSealedValues(sets: ConfigSets): boolean {
  return Object.values(sets).some((maps) =>
    Object.values(maps).some((values) =>
      Object.values(values).some((value) => typeof value === "string" && holdsSealedPlaceholder(value)),
    ),
  );
}

function mapSets(
  sets: ConfigSets,
  fn: (set: string, map: string, key: string, value: ConfigValue) => ConfigValue,
): ConfigSets {
  return Object.fromEntries(
    Object.entries(sets).map(([set, maps]) => [
      set,
      Object.fromEntries(
        Object.entries(maps).map(([map, values]) => [
          map,
          Object.fromEntries(Object.entries(values).map(([key, value]) => [key, fn(set, map, key, value)])),
        ]),
      ),
    ]),
  );
}

function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
