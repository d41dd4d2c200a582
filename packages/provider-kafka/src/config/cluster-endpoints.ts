import type { ConfigMaps } from "@stream-registry/core";
import type { ClusterEndpoint } from "@stream-registry/provider-api";
import { parseBootstrapServers } from "./cluster-config.ts";
import { connectWorker } from "../connect/connect-config.ts";
import { schemaRegistryEndpoints } from "../schema-registry/schema-registry-config.ts";
import { KAFKA_MAP } from "./config-maps.ts";

/**
 * Where a cluster with these maps makes the provider connect: its bootstrap servers, each as
 * given (a host name is not resolved here). The brokers a cluster then advertises in its metadata
 * cannot be known before connecting: the provider asks the registry's ConnectPolicy about each
 * before it connects there (guarded-sockets.ts). The external schema registry a
 * "schema.registry" map names is listed too, and the Connect worker of "kafka.connect": the
 * registry calls them (redirects are never followed: http-call.ts).
 */
export function kafkaClusterEndpoints(configMaps: ConfigMaps): ClusterEndpoint[] {
  return [
    ...bootstrapEndpoints(configMaps),
    ...schemaRegistryEndpoints(configMaps),
    ...connectWorker.endpoints(configMaps),
  ];
}

function bootstrapEndpoints(configMaps: ConfigMaps): ClusterEndpoint[] {
  const bootstrap = configMaps[KAFKA_MAP]?.["bootstrap.servers"];
  if (typeof bootstrap !== "string") return [];
  const servers = parseBootstrapServers(bootstrap);
  if (typeof servers === "string") return [];
  return servers.map((server) => ({
    ...splitServer(server),
    field: [KAFKA_MAP, "bootstrap.servers"],
    label: "bootstrap server",
  }));
}

/** A bootstrap server as parsed ("host:port", "[v6]:port"): its host (no brackets) and port. */
export function splitServer(server: string): { host: string; port: number } {
  const colon = server.lastIndexOf(":");
  return { host: server.slice(0, colon).replace(/^\[(.*)\]$/, "$1"), port: Number(server.slice(colon + 1)) };
}
