import { describe, expect, it } from "vitest";
import { isSecretKey } from "@stream-registry/core";
import { seedWidgetsStream } from "@stream-registry/testkit";
import { acmeProvider } from "../src/index.ts";
import { ACME_MAP, acmeConfigMap, acmeLabels, acmeStreamIssues } from "../src/acme-config-map.ts";

const signal = () => ({ signal: new AbortController().signal });

describe("the acme.kafka config map", () => {
  it("is required on streams and documented with its rules", () => {
    expect(acmeConfigMap.requiredIn).toEqual(["stream"]);
    expect(acmeConfigMap.description).toContain("341D");
    expect(acmeProvider.configMaps.map((m) => m.name)).toEqual([
      "apache.kafka",
      "apache.kafka.topic",
      "schema.registry",
      "kafka.connect",
      ACME_MAP,
    ]);
  });

  it("accepts the seed's CREATE STREAM widgets_v0 config in every map, in its scope", async () => {
    const scopes = [
      ["stream", seedWidgetsStream.config],
      ["producer", seedWidgetsStream.producerConfig],
      ["consumer", seedWidgetsStream.consumerConfig],
    ] as const;
    for (const [scope, maps] of scopes) {
      for (const definition of acmeProvider.configMaps) {
        const map = (maps as Record<string, Record<string, string | number>>)[definition.name];
        if (map) expect(definition.validate?.(map, scope), `${definition.name} in ${scope}`).toEqual([]);
      }
    }
    expect(acmeStreamIssues(seedWidgetsStream.config)).toEqual([]);
    // Without a cluster, validation is the config's own rules (replication 4 is checked against brokers at bind time).
    await acmeProvider.infrastructure.validateStream("widgets_v0", seedWidgetsStream.config, signal());
  });

  it("names a missing acme.kafka map", async () => {
    const error = await acmeProvider.infrastructure
      .validateStream("s", { "apache.kafka": { partitions: 1 } }, signal())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      retriable: false,
      issues: [{ field: ["acme.kafka"], message: expect.stringContaining('"acme.kafka" is required') }],
    });
  });

  it("refuses an owner that is not an e-mail address, naming the field and the rule", () => {
    expect(acmeConfigMap.validate({ owner: "bob", team: "t", costcenter: "341D" }, "stream")).toEqual([
      { field: ["owner"], message: '"owner" must be an e-mail address, e.g. bob@acme.com; got "bob"' },
    ]);
  });

  it("refuses a bad cost center, an empty team, a number where text belongs and unknown keys", () => {
    const issues = acmeConfigMap.validate(
      { owner: "bob@acme.com", team: " ", costcenter: "341d", tier: 1 },
      "stream",
    );
    expect(issues.map((i) => i.field)).toEqual([["team"], ["costcenter"], ["tier"]]);
    expect(issues[1]!.message).toContain('three digits and an uppercase letter, e.g. "341D"');
    expect(acmeConfigMap.validate({ costcenter: 341 }, "stream")[0]!.message).toContain("got 341");
  });

  it("lists every missing key of an incomplete map, with the map in the path", () => {
    expect(acmeStreamIssues({ "acme.kafka": { team: "widgets-team" } }).map((i) => i.field)).toEqual([
      ["acme.kafka", "owner"],
      ["acme.kafka", "costcenter"],
    ]);
  });

  it("accepts a partial map (a binding's override) but refuses the map outside stream configs", () => {
    expect(acmeConfigMap.validate({ team: "gadgets-team" }, "stream")).toEqual([]);
    expect(acmeConfigMap.validate({ team: "gadgets-team" }, "cluster")).toEqual([
      {
        field: [],
        message: "\"acme.kafka\" belongs in a stream's or binding's config, not in cluster config",
      },
    ]);
  });

  it("declares its alerts webhook secret, which core's rule on key names would not catch", () => {
    expect(acmeConfigMap.secretKeys).toEqual(["alerts.webhook"]);
    expect(isSecretKey("alerts.webhook")).toBe(false);
    const webhook = "https://chat.acme.com/hooks/T0/B0/s3cr3t";
    const map = {
      owner: "bob@acme.com",
      team: "widgets-team",
      costcenter: "341D",
      "alerts.webhook": webhook,
    };
    expect(acmeConfigMap.validate(map, "stream")).toEqual([]);
    const { "alerts.webhook": _optional, ...required } = map;
    expect(acmeStreamIssues({ [ACME_MAP]: required })).toEqual([]);
  });

  it("never echoes a webhook it refuses, nor puts it in observation labels", () => {
    const [issue] = acmeConfigMap.validate({ "alerts.webhook": "http://chat/s3cr3t" }, "stream");
    expect(issue).toEqual({ field: ["alerts.webhook"], message: '"alerts.webhook" must be an https:// URL' });
    expect(acmeLabels({ team: "t", "alerts.webhook": "https://chat/s3cr3t" })).toEqual({ team: "t" });
    expect(acmeLabels(undefined)).toEqual({});
  });
});
