import { defineHttpService, httpServiceKeys, type HttpServiceSettings } from "../config/http-service.ts";

export const SCHEMA_REGISTRY_MAP = "schema.registry";

export const schemaRegistryKeys = httpServiceKeys(
  "Base URL of the cluster's Confluent-compatible schema registry (Confluent, Karapace, Apicurio's " +
    "/apis/ccompat/v7, Redpanda, another stream registry's /schema-registry)",
);

const schemaRegistry = defineHttpService({
  map: SCHEMA_REGISTRY_MAP,
  label: "schema registry",
  description:
    "The cluster's external Confluent-compatible schema registry (url, username, password); without " +
    "it the cluster's streams use the registry's built-in schema registry",
  keys: schemaRegistryKeys,
});

/** The external registry a cluster's streams use: where, and the Basic credentials if any. */
export type SchemaRegistrySettings = HttpServiceSettings;

/**
 * "schema.registry" on a cluster: the external Confluent-compatible schema registry its streams'
 * schemas go to. A cluster without it uses the registry's built-in schema registry.
 */
export const schemaRegistryConfigMap = schemaRegistry.configMap;

/** The settings of a cluster's external schema registry, or undefined when its config names none (or a bad one). */
export const schemaRegistryOf = schemaRegistry.settingsOf;

/** The schema registry's host and port, for REGISTRY_CONNECT_ALLOW (the registry connects there too). */
export const schemaRegistryEndpoints = schemaRegistry.endpoints;
