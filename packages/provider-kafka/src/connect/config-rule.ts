import type {
  ConfigIssue,
  ConnectorRequest,
  ConnectorType,
  ClusterTarget,
} from "@stream-registry/provider-api";
import type { ConnectorRole } from "@stream-registry/core";
import { isFileSource, needsTopicPrefix } from "./types.ts";

/** The key marking a connector as the registry's: its value names the cluster it was made for. */
export const OWNER_KEY = "stream.registry.owner";
/** The transform the registry appends to a source (other than the file source) to route into the stream's topic. */
export const ROUTER = "streamRegistryTopic";

/** A connector's config as Connect takes it: every value a string. */
export type ConnectorConfig = Record<string, string>;

/** What the ownership marker says for connectors of a cluster: "<namespace>:<cluster>". */
export const ownerOf = (cluster: ClusterTarget): string => `${cluster.namespace}:${cluster.name}`;

/** The name of the map that is the connector's config, by the rule's preference: "<type>-<role>". */
export const connectorMapName = (type: string, role: ConnectorRole): string => `${type}-${role}`;

/** The rule's outcome: the config sent to Connect, the user's map it came from, and what is wrong. */
export interface ConnectorPlan {
  config: ConnectorConfig;
  /** The map the connector config came from (issues and Connect's field errors name it). */
  map: string;
  issues: ConfigIssue[];
}

/**
 * The one rule (docs/connect.md, "How config maps become a connector"):
 * 1. A map whose name has a dot ("acme.postgres-source", "apache.kafka") is metadata: the registry
 *    keeps it, Connect never sees it.
 * 2. Of the other maps, the connector config is "<type>-source" / "<type>-sink", else the only one
 *    ending in "-source" / "-sink" (the seed's "sqlserver-source" for type "sqlserver-ct"); any
 *    other dotless map is refused. No such map is an empty config.
 * 3. Its values become strings; the registry fills in `connector.class` (from the type), the
 *    stream's topic (a sink's `topics`; the file source's `topic`; any other source routes every
 *    record into it with a RegexRouter transform appended to the user's `transforms`, and a
 *    Debezium source gets the stream's name as `topic.prefix` unless given) and the ownership
 *    marker. Giving a key the registry fills in is refused.
 */
export function connectorPlan(
  role: ConnectorRole,
  request: ConnectorRequest,
  type: ConnectorType,
): ConnectorPlan {
  const issues: ConfigIssue[] = [];
  const preferred = connectorMapName(request.type, role);
  const candidates = Object.keys(request.configMaps).filter((name) => !name.includes("."));
  const suffixed = candidates.filter((name) => name.endsWith(`-${role}`));
  const map = candidates.includes(preferred) ? preferred : suffixed.length === 1 ? suffixed[0]! : preferred;
  for (const other of candidates.filter((name) => name !== map)) {
    issues.push({
      field: [other],
      message:
        `config map "${other}" is neither the connector's config ("${preferred}") nor metadata: ` +
        `maps the registry keeps without sending to Connect have a dotted name, e.g. "acme.${other}"`,
    });
  }
  const filled = filledKeys(role, request.name, type);
  const given = request.configMaps[map] ?? {};
  const config: ConnectorConfig = {};
  for (const [key, value] of Object.entries(given)) {
    if (
      Object.hasOwn(filled, key) ||
      key === "name" ||
      key === "topics.regex" ||
      key.startsWith(`transforms.${ROUTER}.`)
    ) {
      issues.push({
        field: [map, key],
        message: `"${key}" is filled in by the registry (docs/connect.md), not given`,
      });
      continue;
    }
    config[key] = String(value);
  }
  if (role === "source" && !isFileSource(type)) {
    const transforms =
      config.transforms
        ?.split(",")
        .map((t) => t.trim())
        .filter((t) => t !== "") ?? [];
    config.transforms = [...transforms, ROUTER].join(",");
    if (needsTopicPrefix(type) && config["topic.prefix"] === undefined) config["topic.prefix"] = request.name;
  }
  Object.assign(config, filled, { [OWNER_KEY]: ownerOf(request.cluster) });
  return { config, map, issues };
}

/** The keys the rule fills in, with their values. */
function filledKeys(role: ConnectorRole, stream: string, type: ConnectorType): ConnectorConfig {
  const keys: ConnectorConfig = { "connector.class": type.class, [OWNER_KEY]: "" };
  if (role === "sink") return { ...keys, topics: stream };
  if (isFileSource(type)) return { ...keys, topic: stream };
  return {
    ...keys,
    [`transforms.${ROUTER}.type`]: "org.apache.kafka.connect.transforms.RegexRouter",
    [`transforms.${ROUTER}.regex`]: ".*",
    [`transforms.${ROUTER}.replacement`]: stream,
  };
}
