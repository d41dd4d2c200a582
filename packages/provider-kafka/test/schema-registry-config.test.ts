import { describe, expect, it } from "vitest";
import { isSecretKey } from "@stream-registry/core";
import {
  createConfluentSchemaManager,
  createKafkaProvider,
  kafkaClusterEndpoints,
  schemaRegistryConfigMap,
  schemaRegistryOf,
} from "../src/index.ts";

const kafka = { "bootstrap.servers": "b1:9092" };
const cluster = (config: Record<string, Record<string, string>>) => ({ namespace: "/", name: "c1", config });

describe('the "schema.registry" cluster config map', () => {
  it("takes a url and optional Basic credentials; the password is a secret", () => {
    expect(schemaRegistryConfigMap.validate({ url: "http://sr:8081/" }, "cluster")).toEqual([]);
    expect(
      schemaRegistryConfigMap.validate(
        { url: "https://sr.acme/apis/ccompat/v7", username: "u", password: "p" },
        "cluster",
      ),
    ).toEqual([]);
    expect(isSecretKey("password")).toBe(true);
    expect(
      schemaRegistryOf({ "schema.registry": { url: "http://sr:8081/x/", username: "u", password: "p" } }),
    ).toEqual({
      url: "http://sr:8081/x",
      username: "u",
      password: "p",
    });
  });

  it("refuses a missing or bad url, a password without a user, unknown keys, other scopes", () => {
    const fields = (map: Record<string, string>) =>
      schemaRegistryConfigMap.validate(map, "cluster").map((issue) => issue.field.join("."));
    expect(fields({})).toEqual(["url"]);
    expect(fields({ url: "sr:8081" })).toEqual(["url"]);
    expect(fields({ url: "ftp://sr" })).toEqual(["url"]);
    expect(fields({ url: "http://u:p@sr" })).toEqual(["url"]);
    expect(fields({ url: "http://sr", password: "p" })).toEqual(["username"]);
    expect(fields({ url: "http://sr", user: "u" })).toEqual(["user"]);
    expect(schemaRegistryConfigMap.validate({ url: "http://sr" }, "stream")).toHaveLength(1);
    expect(schemaRegistryOf({ "schema.registry": { url: "nope" } })).toBeUndefined();
  });

  it("is among the provider's maps, and its url among the endpoints REGISTRY_CONNECT_ALLOW checks", async () => {
    const provider = createKafkaProvider();
    try {
      expect(provider.configMaps.map((map) => map.name)).toContain("schema.registry");
    } finally {
      await provider.close();
    }
    const label = "schema registry";
    const field = ["schema.registry", "url"];
    const endpoints = (url: string) =>
      kafkaClusterEndpoints({ "apache.kafka": kafka, "schema.registry": { url } });
    expect(endpoints("http://sr.acme:8081/").at(-1)).toEqual({ host: "sr.acme", port: 8081, field, label });
    expect(endpoints("https://sr.acme/ccompat").at(-1)).toEqual({ host: "sr.acme", port: 443, field, label });
    expect(endpoints("http://[fd00::2]/").at(-1)).toEqual({ host: "fd00::2", port: 80, field, label });
    expect(kafkaClusterEndpoints({ "apache.kafka": kafka })).toHaveLength(1);
  });

  it("decides which clusters the provider's SchemaManager serves: those whose config names a registry", () => {
    const manager = createConfluentSchemaManager();
    expect(manager.servesCluster?.(cluster({ "apache.kafka": kafka }))).toBe(false);
    expect(manager.servesCluster?.(cluster({ "schema.registry": { url: "http://sr:8081" } }))).toBe(true);
    expect(manager.servesCluster?.(cluster({ "schema.registry": { url: "not a url" } }))).toBe(false);
  });
});
