import type { ConfigMaps } from "@stream-registry/core";
import type { ClusterEndpoint } from "@stream-registry/provider-api";
import { parseBootstrapServers } from "./cluster-config.ts";
import { schemaRegistryEndpoints } from "../schema-registry/schema-registry-config.ts";
import { KAFKA_MAP } from "./config-maps.ts";

/**
 * Where a cluster with these maps makes the provider connect: its bootstrap servers, each as
 * given (a host name is not resolved here). The brokers a cluster then advertises in its metadata
 * are the cluster's own, not the caller's: they are not listed. The external schema registry a
 * "schema.registry" map names is listed too: the registry calls it.
 */
export function kafkaClusterEndpoints(configMaps: ConfigMaps): ClusterEndpoint[] {
  return [...bootstrapEndpoints(configMaps), ...schemaRegistryEndpoints(configMaps)];
}

function bootstrapEndpoints(configMaps: ConfigMaps): ClusterEndpoint[] {
  const bootstrap = configMaps[KAFKA_MAP]?.["bootstrap.servers"];
  if (typeof bootstrap !== "string") return [];
  const servers = parseBootstrapServers(bootstrap);
  if (typeof servers === "string") return [];
  return servers.map((server) => {
    const colon = server.lastIndexOf(":");
    const host = server.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
    return {
      host,
      port: Number(server.slice(colon + 1)),
      field: [KAFKA_MAP, "bootstrap.servers"],
      label: "bootstrap server",
    };
  });
}
