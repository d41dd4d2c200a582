import { checkConfigMaps, mergeConfigMaps, type ConfigMaps, type UserError } from "@stream-registry/core";
import type { ConfigScope } from "@stream-registry/provider-api";
import type { ProviderRegistry } from "../providers/provider-registry.ts";

/** The three sets of config maps a stream or binding carries, as given in a mutation's input. */
export interface ConfigInput {
  config?: unknown;
  producerConfig?: unknown;
  consumerConfig?: unknown;
}

export interface ConfigSet {
  config: ConfigMaps;
  producerConfig: ConfigMaps;
  consumerConfig: ConfigMaps;
}

const scopes = {
  config: "stream",
  producerConfig: "producer",
  consumerConfig: "consumer",
} as const satisfies Record<keyof ConfigSet, ConfigScope>;

/**
 * Checks the given sets (shape, then what providers say of the maps they own) and returns them
 * with `current` filling the ones not given.
 */
export function checkConfigInput(
  input: ConfigInput,
  current: ConfigSet,
  providers: ProviderRegistry,
  errors: UserError[],
): ConfigSet {
  const result = { ...current };
  for (const key of Object.keys(scopes) as (keyof ConfigSet)[]) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    const field = ["input", key];
    const shapeErrors = checkConfigMaps(value, field);
    errors.push(...shapeErrors);
    if (shapeErrors.length > 0) continue;
    const maps = value as ConfigMaps;
    errors.push(...providers.checkOwnedMaps(maps, scopes[key], field));
    result[key] = maps;
  }
  return result;
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
