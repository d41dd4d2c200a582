import { describe, expect, it } from "vitest";
import {
  mutate,
  seed,
  DECLARE_CLUSTER,
  UPDATE_BINDING,
  UPDATE_STREAM,
  type UserErrorView,
} from "@stream-registry/testkit";
import { useTestRegistry } from "./support/test-registry.ts";
import { prismaOf } from "@stream-registry/store/testing";

type Maps = Record<string, Record<string, string | number | boolean> | null>;
interface Payload {
  userErrors: UserErrorView[];
  stream?: { config: Maps; producerConfig: Maps; generation: number };
  binding?: { config: Maps; status: { generation: number } };
  cluster?: { config: Maps; generation: number };
}

const EFFECTIVE = `query($stream: String!, $cluster: String) {
  stream(name: $stream) { effectiveConfig(cluster: $cluster) { config } } }`;

// docs/ddl.md's and the seed's rule: in UPDATE ... WITH CONFIG a map given replaces that map,
// maps not named stay; null removes a map.
describe("updates replace config maps one by one", () => {
  const registry = useTestRegistry("pglite");
  const apache = { partitions: 10, replication: 3, compacted: "true" };
  const acme = { owner: "bob@acme.com", team: "widgets-team" };

  it("UPDATE STREAM with one map keeps the others, replaces that map whole, and null removes one", async () => {
    const r = registry();
    await seed(r).stream({
      name: "upd_maps",
      config: { "apache.kafka": apache, "acme.kafka": acme },
      producerConfig: { "apache.kafka": { acks: "all" } },
    });
    const updated = await mutate<Payload>(r, UPDATE_STREAM, {
      input: { name: "upd_maps", config: { "acme.kafka": { team: "w" } } },
    });
    // "apache.kafka" was not named: it stays; "acme.kafka" is exactly what was given (owner gone).
    expect(updated.stream?.config).toEqual({ "apache.kafka": apache, "acme.kafka": { team: "w" } });
    expect(updated.stream?.producerConfig).toEqual({ "apache.kafka": { acks: "all" } });
    expect(updated.stream?.generation).toBe(2);

    const added = await mutate<Payload>(r, UPDATE_STREAM, {
      input: { name: "upd_maps", config: { "acme.audit": { level: 1 } } },
    });
    expect(added.stream?.config).toEqual({
      "apache.kafka": apache,
      "acme.kafka": { team: "w" },
      "acme.audit": { level: 1 },
    });

    const removed = await mutate<Payload>(r, UPDATE_STREAM, {
      input: { name: "upd_maps", config: { "acme.kafka": null, "acme.audit": null } },
    });
    expect(removed.stream?.config).toEqual({ "apache.kafka": apache });
    const stored = await prismaOf(r.db.prisma).stream.findUniqueOrThrow({ where: { name: "upd_maps" } });
    expect(stored.config).toEqual({ "apache.kafka": apache });

    // Removing a map that is not there, or giving one as it is stored, is no change.
    const again = await mutate<Payload>(r, UPDATE_STREAM, {
      input: { name: "upd_maps", config: { "acme.kafka": null, "apache.kafka": apache } },
    });
    expect(again.stream?.generation).toBe(removed.stream?.generation);
    // An empty map is a map (a provider may require one), not a removal.
    const empty = await mutate<Payload>(r, UPDATE_STREAM, {
      input: { name: "upd_maps", config: { "acme.kafka": {} } },
    });
    expect(empty.stream?.config).toEqual({ "apache.kafka": apache, "acme.kafka": {} });
  });

  it("refuses a removal of a map with a bad name, naming the field, and changes nothing", async () => {
    const r = registry();
    await seed(r).stream({ name: "upd_bad", config: { "acme.kafka": acme } });
    const answer = await r.query<{ updateStream: Payload }>(UPDATE_STREAM, {
      input: { name: "upd_bad", config: { "acme.kafka": null, "bad name": null } },
    });
    expect(answer.updateStream.userErrors).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "config", "bad name"] }),
    ]);
    const stored = await prismaOf(r.db.prisma).stream.findUniqueOrThrow({ where: { name: "upd_bad" } });
    expect(stored.config).toEqual({ "acme.kafka": acme });
    expect(stored.generation).toBe(1);
  });

  it("UPDATE BINDING replaces override maps one by one; a removed override leaves the stream's map", async () => {
    const r = registry();
    await seed(r).cluster({ name: "upd-c" });
    await seed(r).stream({ name: "upd_b", config: { "apache.kafka": apache, "acme.kafka": acme } });
    await seed(r).binding({
      stream: "upd_b",
      cluster: "upd-c",
      config: { "apache.kafka": { partitions: 20 }, "acme.kafka": { team: "edge" } },
    });
    const updated = await mutate<Payload>(r, UPDATE_BINDING, {
      input: { stream: "upd_b", cluster: "upd-c", config: { "acme.kafka": { owner: "eve@acme.com" } } },
    });
    expect(updated.binding?.config).toEqual({
      "apache.kafka": { partitions: 20 },
      "acme.kafka": { owner: "eve@acme.com" },
    });
    const removed = await mutate<Payload>(r, UPDATE_BINDING, {
      input: { stream: "upd_b", cluster: "upd-c", config: { "apache.kafka": null } },
    });
    expect(removed.binding?.config).toEqual({ "acme.kafka": { owner: "eve@acme.com" } });
    const effective = await r.query<{ stream: { effectiveConfig: { config: Maps } } }>(EFFECTIVE, {
      stream: "upd_b",
      cluster: "upd-c",
    });
    expect(effective.stream.effectiveConfig.config).toEqual({
      "apache.kafka": apache,
      "acme.kafka": { ...acme, owner: "eve@acme.com" },
    });
  });

  it("DECLARE CLUSTER with a config replaces the maps it names and keeps the others", async () => {
    const r = registry();
    await mutate<Payload>(r, DECLARE_CLUSTER, {
      input: { name: "upd-cc", config: { "acme.site": { region: "eu" }, "acme.ops": { pager: "team-a" } } },
    });
    const redeclared = await mutate<Payload>(r, DECLARE_CLUSTER, {
      input: { name: "upd-cc", config: { "acme.ops": { pager: "team-b" }, "acme.site": null } },
    });
    expect(redeclared.cluster?.config).toEqual({ "acme.ops": { pager: "team-b" } });
  });
});
