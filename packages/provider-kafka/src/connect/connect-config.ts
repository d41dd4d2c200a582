import { defineHttpService, httpServiceKeys, type HttpServiceSettings } from "../config/http-service.ts";

export const CONNECT_MAP = "kafka.connect";

/**
 * "kafka.connect" on a cluster: the Kafka Connect worker its stream sources and sinks run on
 * (`configMap`), its settings in a cluster's maps (`settingsOf`, undefined when it names none) and
 * its address for REGISTRY_CONNECT_ALLOW (`endpoints`).
 */
export const connectWorker = defineHttpService({
  map: CONNECT_MAP,
  label: "Kafka Connect worker",
  description:
    "The cluster's Kafka Connect worker (url, username, password): its stream sources and sinks are " +
    "connectors there (docs/connect.md); without it the cluster has no source or sink types",
  keys: httpServiceKeys(
    "Base URL of the Kafka Connect worker (REST API) the cluster's stream sources and sinks run on",
  ),
});

/** Where a cluster's Connect worker answers. */
export type ConnectSettings = HttpServiceSettings;
