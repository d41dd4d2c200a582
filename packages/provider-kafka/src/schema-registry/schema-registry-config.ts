import type { ConfigMap, ConfigMaps } from "@stream-registry/core";
import type {
  ClusterEndpoint,
  ConfigIssue,
  ConfigMapDefinition,
  ConfigScope,
} from "@stream-registry/provider-api";
import { parseKeys, text } from "../config/key-spec.ts";

export const SCHEMA_REGISTRY_MAP = "schema.registry";

function checkUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be an http:// or https:// URL, got ${JSON.stringify(value)}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `must be an http:// or https:// URL, got ${JSON.stringify(value)}`;
  }
  if (url.username || url.password) return 'must not hold credentials: give "username" and "password"';
  if (url.search || url.hash) return "must not have a query or a fragment";
  return undefined;
}

export const schemaRegistryKeys = {
  url: text({
    description:
      "Base URL of the cluster's Confluent-compatible schema registry (Confluent, Karapace, Apicurio's " +
      "/apis/ccompat/v7, Redpanda, another stream registry's /schema-registry)",
    type: "http(s) URL",
    check: checkUrl,
  }),
  username: text({ description: "HTTP Basic user name (with password)." }),
  password: text({ description: "HTTP Basic password or API token (secret: stored, never shown)." }),
};

/** The external registry a cluster's streams use: where, and the Basic credentials if any. */
export interface SchemaRegistrySettings {
  url: string;
  username?: string;
  password?: string;
}

function parseSchemaRegistryMap(map: ConfigMap) {
  const { values, issues } = parseKeys(map, schemaRegistryKeys, `the "${SCHEMA_REGISTRY_MAP}" config map`);
  if (map.url === undefined) issues.push({ field: ["url"], message: '"url" is required' });
  if (map.password !== undefined && map.username === undefined) {
    issues.push({ field: ["username"], message: '"username" is required with "password"' });
  }
  return { values, issues };
}

/**
 * "schema.registry" on a cluster: the external Confluent-compatible schema registry its streams'
 * schemas go to. A cluster without it uses the registry's built-in schema registry.
 */
export const schemaRegistryConfigMap = {
  name: SCHEMA_REGISTRY_MAP,
  description:
    "The cluster's external Confluent-compatible schema registry (url, username, password); without " +
    "it the cluster's streams use the registry's built-in schema registry",
  validate(map: ConfigMap, scope: ConfigScope): ConfigIssue[] {
    if (scope !== "cluster") {
      return [
        {
          field: [],
          message: `config map "${SCHEMA_REGISTRY_MAP}" names a cluster's schema registry and belongs in a cluster's config, not in a ${scope} config`,
        },
      ];
    }
    return parseSchemaRegistryMap(map).issues;
  },
} satisfies ConfigMapDefinition;

/** The settings of a cluster's external schema registry, or undefined when its config names none (or a bad one). */
export function schemaRegistryOf(maps: ConfigMaps): SchemaRegistrySettings | undefined {
  const map = maps[SCHEMA_REGISTRY_MAP];
  if (map === undefined) return undefined;
  const { values, issues } = parseSchemaRegistryMap(map);
  if (issues.length > 0 || values.url === undefined) return undefined;
  return {
    url: values.url.replace(/\/+$/, ""),
    ...(values.username !== undefined && { username: values.username }),
    ...(values.password !== undefined && { password: values.password }),
  };
}

/** The schema registry's host and port, for REGISTRY_CONNECT_ALLOW (the registry connects there too). */
export function schemaRegistryEndpoints(maps: ConfigMaps): ClusterEndpoint[] {
  const settings = schemaRegistryOf(maps);
  if (!settings) return [];
  const url = new URL(settings.url);
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return [
    {
      host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port,
      field: [SCHEMA_REGISTRY_MAP, "url"],
      label: "schema registry",
    },
  ];
}
