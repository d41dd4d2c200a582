import type { ConfigMap, ConfigMaps } from "@stream-registry/core";
import type {
  ClusterEndpoint,
  ConfigIssue,
  ConfigMapDefinition,
  ConfigScope,
} from "@stream-registry/provider-api";
import { parseKeys, text } from "./key-spec.ts";

/**
 * A cluster's HTTP service beside its brokers (an external schema registry in "schema.registry",
 * a Kafka Connect worker in "kafka.connect"): its base URL and optional Basic credentials, one
 * key table, one parser and one REGISTRY_CONNECT_ALLOW endpoint for both.
 */
export interface HttpServiceSettings {
  /** The base URL, without trailing slashes. */
  url: string;
  username?: string;
  password?: string;
}

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

/** The keys of a service's map; `url` is described by the service. */
export function httpServiceKeys(urlDescription: string) {
  return {
    url: text({ description: urlDescription, type: "http(s) URL", check: checkUrl }),
    username: text({ description: "HTTP Basic user name (with password)." }),
    password: text({ description: "HTTP Basic password or API token (secret: stored, never shown)." }),
  };
}

/** One service's config map: its name, what it is for (the map's docs) and its keys. */
interface HttpService {
  map: string;
  /** What the service is, for messages, e.g. "schema registry", "Kafka Connect worker". */
  label: string;
  description: string;
  keys: ReturnType<typeof httpServiceKeys>;
}

function parseServiceMap(service: HttpService, map: ConfigMap) {
  const { values, issues } = parseKeys(map, service.keys, `the "${service.map}" config map`);
  if (map.url === undefined) issues.push({ field: ["url"], message: '"url" is required' });
  if (map.password !== undefined && map.username === undefined) {
    issues.push({ field: ["username"], message: '"username" is required with "password"' });
  }
  return { values, issues };
}

/** The service's map as a provider owns it: on clusters only, its keys checked. */
function httpServiceConfigMap(service: HttpService) {
  return {
    name: service.map,
    description: service.description,
    validate(map: ConfigMap, scope: ConfigScope): ConfigIssue[] {
      if (scope !== "cluster") {
        return [
          {
            field: [],
            message: `config map "${service.map}" names a cluster's ${service.label} and belongs in a cluster's config, not in a ${scope} config`,
          },
        ];
      }
      return parseServiceMap(service, map).issues;
    },
  } satisfies ConfigMapDefinition;
}

/** The service's settings in a cluster's maps, or undefined when they name none (or a bad one). */
function httpServiceOf(service: HttpService, maps: ConfigMaps): HttpServiceSettings | undefined {
  const map = maps[service.map];
  if (map === undefined) return undefined;
  const { values, issues } = parseServiceMap(service, map);
  if (issues.length > 0 || values.url === undefined) return undefined;
  return {
    url: values.url.replace(/\/+$/, ""),
    ...(values.username !== undefined && { username: values.username }),
    ...(values.password !== undefined && { password: values.password }),
  };
}

/** The service's host and port, for REGISTRY_CONNECT_ALLOW (the registry connects there too). */
function httpServiceEndpoints(service: HttpService, maps: ConfigMaps): ClusterEndpoint[] {
  const settings = httpServiceOf(service, maps);
  return settings ? [{ ...hostPortOf(settings.url), field: [service.map, "url"], label: service.label }] : [];
}

/** A URL's host (IPv6 without brackets) and port (the scheme's default when it names none). */
export function hostPortOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80;
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"), port };
}

/** A service's map, settings and endpoints, for the module that names the service. */
export function defineHttpService(service: HttpService) {
  return {
    configMap: httpServiceConfigMap(service),
    settingsOf: (maps: ConfigMaps): HttpServiceSettings | undefined => httpServiceOf(service, maps),
    endpoints: (maps: ConfigMaps): ClusterEndpoint[] => httpServiceEndpoints(service, maps),
  };
}
