import { randomBytes } from "node:crypto";
import type { ConnectorRequest } from "@stream-registry/provider-api";
import { defineProviderConformanceSuite } from "@stream-registry/provider-api/conformance";
import { testProvider } from "@stream-registry/testkit";
import { registryOnlyProvider } from "../src/providers/registry-only.ts";

defineProviderConformanceSuite(
  () => ({
    provider: registryOnlyProvider,
    cluster: { namespace: "/", name: "conformance", config: {} },
    validStream: { "acme.kafka": { team: "widgets-team" } },
    observesRealInfrastructure: false,
  }),
  { title: "registry-only provider conformance" },
);

const conformanceCluster = {
  namespace: "/",
  name: "conformance",
  config: { "test.provider": { maxPartitions: 3 } },
};

/** A file connector of a new name; the same name with another type is a conflict. */
const connectorSample = {
  request: (): ConnectorRequest => ({
    name: `connector_${randomBytes(4).toString("hex")}`,
    cluster: conformanceCluster,
    type: "file",
    configMaps: { "file-source": { file: "/dev/null" } },
    state: "RUNNING",
  }),
  conflicting: (request: ConnectorRequest): ConnectorRequest => ({ ...request, type: "postgres" }),
};

defineProviderConformanceSuite(
  () => ({
    provider: testProvider,
    cluster: conformanceCluster,
    unreachableCluster: {
      namespace: "/",
      name: "conformance-down",
      config: { "test.provider": { unreachable: true } },
    },
    validStream: { "test.provider": { partitions: 2 } },
    invalidStream: {
      configMaps: { "test.provider": { partitions: 5 } },
      field: ["test.provider", "partitions"],
    },
    conflictingStream: { "test.provider": { partitions: 3 } },
    observesRealInfrastructure: true,
    sources: connectorSample,
    sinks: connectorSample,
  }),
  { title: "test provider conformance" },
);
