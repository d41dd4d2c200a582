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

defineProviderConformanceSuite(
  () => ({
    provider: testProvider,
    cluster: { namespace: "/", name: "conformance", config: { "test.provider": { maxPartitions: 3 } } },
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
  }),
  { title: "test provider conformance" },
);
