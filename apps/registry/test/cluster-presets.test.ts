import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createTestDatabase,
  mutate,
  testPlatform,
  DECLARE_CLUSTER,
  type UserErrorView,
} from "@stream-registry/testkit";
import { loadConfig } from "../src/config.ts";
import { startTestRegistry, useTestRegistry, type TestRegistry } from "./support/test-registry.ts";
import { prismaOf } from "@stream-registry/store/testing";

const dir = mkdtempSync(path.join(tmpdir(), "cluster-presets-"));
function presetsFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

// How this registry reaches its clusters, as an operator writes it; the test provider stands for
// Kafka. "acme.conn" holds a secret, as a real connection config may.
const SEALED = /^\*{8}:[0-9a-f]{12}$/;
const presets = {
  cluster001: {
    provider: "test",
    config: { "test.provider": { maxPartitions: 50 }, "acme.conn": { user: "app", password: "pw-1" } },
  },
  cluster002: {
    provider: "test",
    config: { "test.provider": {}, "acme.conn": { user: "app", password: "pw-2" } },
  },
};
const jsonFile = presetsFile("clusters.json", JSON.stringify(presets));

interface Payload {
  userErrors: UserErrorView[];
  created: boolean | null;
  cluster: { provider: string; config: unknown; generation: number } | null;
}
/** A DECLARE CLUSTER that must succeed. */
function declare(r: TestRegistry, input: Record<string, unknown>): Promise<Payload> {
  return mutate<Payload>(r, DECLARE_CLUSTER, { input });
}

describe("REGISTRY_CLUSTERS_FILE pre-configures how the registry reaches its clusters", () => {
  const registry = useTestRegistry("pglite", { REGISTRY_CLUSTERS_FILE: jsonFile });

  it('gives the seed\'s bare `DECLARE CLUSTER "cluster001";` the preset provider and config, secrets redacted', async () => {
    const r = registry();
    const declared = await declare(r, { name: "cluster001" });
    expect(declared).toMatchObject({
      created: true,
      cluster: {
        provider: "test",
        config: {
          "test.provider": { maxPartitions: 50 },
          "acme.conn": { user: "app", password: expect.stringMatching(SEALED) },
        },
      },
    });
    // Stored sealed; the provider was given the preset's secret.
    const stored = await prismaOf(r.db.prisma).cluster.findUniqueOrThrow({ where: { name: "cluster001" } });
    expect(stored.config).toEqual(declared.cluster?.config);
    expect(testPlatform().reached.get("cluster001")).toEqual(presets.cluster001.config);
    // The start-up log names the presets, never their config.
    expect(r.logs.join("\n")).toContain('"clusters":{"cluster001":"test","cluster002":"test"}');
    expect(r.logs.join("\n")).not.toMatch(/pw-1|pw-2/);
    // Declaring it again, bare, is a no-op.
    const again = await declare(r, { name: "cluster001" });
    expect(again.cluster?.generation).toBe(declared.cluster?.generation);
  });

  it("applies a given config map by map over the preset, and a placeholder keeps the preset's secret", async () => {
    const r = registry();
    const declared = await declare(r, {
      name: "cluster002",
      config: { "acme.conn": { user: "ops", password: "********" } },
    });
    expect(declared.cluster?.config).toEqual({
      "test.provider": {},
      "acme.conn": { user: "ops", password: expect.stringMatching(SEALED) },
    });
    const stored = await prismaOf(r.db.prisma).cluster.findUniqueOrThrow({ where: { name: "cluster002" } });
    expect(JSON.stringify(stored.config)).not.toContain("pw-2");
    expect(testPlatform().reached.get("cluster002")).toEqual({
      "test.provider": {},
      "acme.conn": { user: "ops", password: "pw-2" },
    });
    const answer = await r.query<{ declareCluster: Payload }>(DECLARE_CLUSTER, {
      input: { name: "cluster003", config: { "acme.conn": { password: "********" } } },
    });
    expect(answer.declareCluster.userErrors).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "config", "acme.conn", "password"] }),
    ]);
  });

  it("leaves clusters without a preset registry-only, and a preset's config to its own provider", async () => {
    const r = registry();
    expect((await declare(r, { name: "cluster009" })).cluster).toMatchObject({
      provider: "registry-only",
      config: {},
    });
    // The preset's config is how its provider reaches the cluster: another provider does not get it.
    const other = await r.query<{ declareCluster: Payload }>(DECLARE_CLUSTER, {
      input: { name: "cluster001-x", provider: "registry-only" },
    });
    expect(other.declareCluster.cluster?.config).toEqual({});
  });
});

describe("REGISTRY_CLUSTERS_FILE in YAML", () => {
  const yamlFile = presetsFile(
    "clusters.yaml",
    `# cluster name -> provider and connection
cluster001:
  provider: test
  config:
    test.provider: { maxPartitions: 7 }
`,
  );
  const registry = useTestRegistry("pglite", { REGISTRY_CLUSTERS_FILE: yamlFile });

  it("reads it like the JSON one", async () => {
    const declared = await declare(registry(), { name: "cluster001" });
    expect(declared.cluster).toMatchObject({
      provider: "test",
      config: { "test.provider": { maxPartitions: 7 } },
    });
  });
});

describe("a bad REGISTRY_CLUSTERS_FILE stops the start, naming the file and the key", () => {
  it("refuses a missing file, bad JSON and a bad shape when the config is loaded", () => {
    const missing = path.join(dir, "nope.json");
    expect(() => loadConfig({ REGISTRY_CLUSTERS_FILE: missing }, dir)).toThrow(
      `REGISTRY_CLUSTERS_FILE ${missing}: cannot read it`,
    );
    const broken = presetsFile("broken.json", '{ "cluster001": { "provider": "kafka", } }');
    expect(() => loadConfig({ REGISTRY_CLUSTERS_FILE: "broken.json" }, dir)).toThrow(
      `REGISTRY_CLUSTERS_FILE ${broken}: not valid JSON`,
    );
    const shape = presetsFile(
      "shape.json",
      JSON.stringify({
        cluster001: { provider: "kafka", config: { "apache.kafka": { "bootstrap.servers": ["k1:9092"] } } },
        cluster002: { provider: "kafka", bootstrap: "k2:9092" },
        cluster003: "kafka",
      }),
    );
    let message = "";
    try {
      loadConfig({ REGISTRY_CLUSTERS_FILE: shape }, dir);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      [
        `REGISTRY_CLUSTERS_FILE ${shape} is invalid:`,
        '  cluster001.config."apache.kafka"."bootstrap.servers": must be a string, number or boolean',
        '  cluster002: unknown key(s) "bootstrap"; a cluster has only "provider" and "config"',
        "  cluster003: Invalid input: expected object, received string",
      ].join("\n"),
    );
  });

  it("refuses an unknown provider, a bad map and a missing required map at start-up, keeping secrets out", async () => {
    const file = presetsFile(
      "rules.json",
      JSON.stringify({
        cluster001: { provider: "kafak", config: { "acme.conn": { password: "pw-9" } } },
        cluster002: { provider: "test", config: { "test.provider": { colour: "red" } } },
        cluster003: { provider: "kafka" },
        "bad name": {},
      }),
    );
    const database = await createTestDatabase("pglite", "presets");
    try {
      const started = startTestRegistry({ database, env: { REGISTRY_CLUSTERS_FILE: file } });
      const error = await started.then(
        async (r) => {
          await r.stop();
          return new Error("the registry started");
        },
        (thrown: unknown) => thrown as Error,
      );
      expect(error.message).toMatch(new RegExp(`^REGISTRY_CLUSTERS_FILE ${file} is invalid:\n`));
      expect(error.message).toContain(
        '  cluster001.provider: unknown provider kind "kafak"; loaded providers: ',
      );
      expect(error.message).toContain('  cluster002.config."test.provider".colour: unknown key "colour"');
      expect(error.message).toContain(
        '  cluster003.config."apache.kafka": config map "apache.kafka" is required',
      );
      expect(error.message).toContain('  "bad name": cluster name "bad name" has invalid character');
      expect(error.message).not.toContain("pw-9");
    } finally {
      await database.drop();
    }
  });
});
