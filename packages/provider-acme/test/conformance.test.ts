import { randomBytes } from "node:crypto";
import { defineProviderConformanceSuite } from "@stream-registry/provider-api/conformance";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { createAcmeProvider } from "../src/index.ts";

const kafka = useSharedKafkaClusters();
const acme = { owner: "bob@acme.com", team: "widgets-team", costcenter: "341D" };

defineProviderConformanceSuite(
  () => ({
    provider: createAcmeProvider({ logLevel: "nothing" }),
    cluster: {
      namespace: "/",
      name: "acme-conformance",
      config: { "apache.kafka": { "bootstrap.servers": kafka.at(0).bootstrapServers } },
    },
    unreachableCluster: {
      namespace: "/",
      name: "acme-down",
      config: { "apache.kafka": { "bootstrap.servers": "127.0.0.1:1" } },
    },
    validStream: { "apache.kafka": { partitions: 1, replication: 1 }, "acme.kafka": acme },
    invalidStream: {
      configMaps: { "apache.kafka": { partitions: 1 }, "acme.kafka": { ...acme, owner: "bob" } },
      field: ["acme.kafka", "owner"],
    },
    conflictingStream: { "apache.kafka": { partitions: 2, replication: 1 }, "acme.kafka": acme },
    streamName: () => `acme_conf_${randomBytes(4).toString("hex")}`,
    observesRealInfrastructure: true,
  }),
  { title: "acme provider conformance (real Kafka)" },
);
