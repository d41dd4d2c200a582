import {
  givesSecrets,
  keepStoredSecrets,
  mergeConfigMaps,
  type ConfigMaps,
  type UserError,
} from "@stream-registry/core";
import type { ConfigScope } from "@stream-registry/provider-api";
import { withOpened } from "../providers/opened-configs.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import { applyConfigMapsChange, readConfigMapsChange } from "./config-replace.ts";

/** The three sets of config maps a stream or binding carries, as given in a mutation's input. */
export interface ConfigInput {
  config?: unknown;
  producerConfig?: unknown;
  consumerConfig?: unknown;
}

export type ConfigSet = {
  config: ConfigMaps;
  producerConfig: ConfigMaps;
  consumerConfig: ConfigMaps;
};

const scopes = {
  config: "stream",
  producerConfig: "producer",
  consumerConfig: "consumer",
} as const satisfies Record<keyof ConfigSet, ConfigScope>;

/**
 * Checks the given sets (shape, then what providers say of the maps they own) and returns them
 * applied to `current`: within a given set, each map named replaces the stored map of that name
 * (null removes it) and maps not named stay; sets not given stay whole. A value a query showed
 * redacted ("********") stands for the value stored in `current` (a sealed one's placeholder), and
 * providers validate the real one, from `opened` (`current` with its sealed secrets opened).
 */
export function checkConfigInput(
  input: ConfigInput,
  current: ConfigSet,
  providers: ProviderRegistry,
  errors: UserError[],
  opened: ConfigSet = current,
): ConfigSet {
  const result = { ...current };
  for (const key of Object.keys(scopes) as (keyof ConfigSet)[]) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    const field = ["input", key];
    const { change, errors: shapeErrors } = readConfigMapsChange(value, field, providers.isSecret);
    errors.push(...shapeErrors);
    if (shapeErrors.length > 0) continue;
    const { maps, errors: keepErrors } = keepStoredSecrets(
      change.maps,
      current[key],
      providers.isSecret,
      field,
    );
    errors.push(...keepErrors);
    if (keepErrors.length > 0) continue;
    errors.push(...providers.checkOwnedMaps(withOpened(maps, opened[key]), scopes[key], field));
    result[key] = applyConfigMapsChange(current[key], { maps, removed: change.removed });
  }
  return result;
}

/**
 * Whether the input gives a secret in clear. Call only on input `checkConfigInput` accepted. Such
 * an update is a change even if the secret equals the stored one: skipping it would confirm a guess.
 */
export function givesSecretsIn(input: ConfigInput, providers: ProviderRegistry): boolean {
  return (Object.keys(scopes) as (keyof ConfigSet)[]).some((key) => {
    const value = input[key];
    if (value === undefined || value === null) return false;
    return givesSecrets(readConfigMapsChange(value, [], providers.isSecret).change.maps, providers.isSecret);
  });
}

export const EMPTY_CONFIG_SET: ConfigSet = { config: {}, producerConfig: {}, consumerConfig: {} };

export function configSetOf(row: {
  config: unknown;
  producerConfig: unknown;
  consumerConfig: unknown;
}): ConfigSet {
  return {
    config: row.config as ConfigMaps,
    producerConfig: row.producerConfig as ConfigMaps,
    consumerConfig: row.consumerConfig as ConfigMaps,
  };
}

/** What a binding realizes: the stream's maps with the binding's overrides, key by key. */
export function effectiveConfigSet(stream: ConfigSet, binding: ConfigSet): ConfigSet {
  return {
    config: mergeConfigMaps(stream.config, binding.config),
    producerConfig: mergeConfigMaps(stream.producerConfig, binding.producerConfig),
    consumerConfig: mergeConfigMaps(stream.consumerConfig, binding.consumerConfig),
  };
}
