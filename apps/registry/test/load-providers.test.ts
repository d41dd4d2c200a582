import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  databaseKinds,
  DECLARE_CLUSTER,
  type UserErrorView,
  testProviderModule,
} from "@stream-registry/testkit";
import { loadProviders, ProviderLoadError } from "../src/providers/load-providers.ts";
import { useTestRegistry } from "./support/test-registry.ts";

const fixturesDir = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** The ProviderLoadError that loading `specifiers` throws. */
async function loadError(specifiers: string[]): Promise<ProviderLoadError> {
  const error: unknown = await loadProviders(specifiers, fixturesDir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderLoadError);
  return error as ProviderLoadError;
}

describe("loadProviders", () => {
  it("always has the built-in registry-only and kafka providers", async () => {
    const providers = await loadProviders([]);
    expect([...providers.keys()]).toEqual(["registry-only", "kafka"]);
    expect(providers.get("kafka")?.configMaps.map((m) => m.name)).toContain("apache.kafka");
  });

  it("takes the built-in kafka package named again in REGISTRY_PROVIDERS as already loaded", async () => {
    expect([...(await loadProviders(["@stream-registry/provider-kafka"])).keys()]).toEqual([
      "registry-only",
      "kafka",
    ]);
  });

  it("adds the providers a module exports, by absolute or relative path", async () => {
    expect([...(await loadProviders([testProviderModule])).keys()]).toEqual([
      "registry-only",
      "kafka",
      "test",
    ]);
    expect([...(await loadProviders(["./test-provider.ts"], dirname(testProviderModule))).keys()]).toEqual([
      "registry-only",
      "kafka",
      "test",
    ]);
  });

  it("names a missing package and how to install it", async () => {
    const error = await loadError(["@stream-registry/no-such-provider"]);
    expect(error.reason).toBe("missing-module");
    expect(error.message).toContain(`"@stream-registry/no-such-provider"`);
    expect(error.message).toContain("npm i @stream-registry/no-such-provider");
  });

  it("names a missing file", async () => {
    const error = await loadError(["./no-such-file.ts"]);
    expect(error.reason).toBe("missing-module");
    expect(error.message).toContain(`"./no-such-file.ts"`);
  });

  it("refuses a module without a stream provider export", async () => {
    const error = await loadError(["./not-a-provider.ts"]);
    expect(error.reason).toBe("wrong-shape");
    expect(error.message).toMatch(/"\.\/not-a-provider\.ts" exports no stream provider/);
  });

  it("refuses two modules that export the same kind", async () => {
    const error = await loadError([testProviderModule, "./duplicate-test-provider.ts"]);
    expect(error.reason).toBe("duplicate-kind");
    expect(error.message).toContain(
      `"./duplicate-test-provider.ts" exports kind "test", which is already loaded`,
    );
  });
});

describe.each(databaseKinds)("declaring a cluster with an unknown provider (%s)", (kind) => {
  const registry = useTestRegistry(kind);

  it("answers INVALID_INPUT on input.provider, naming the loaded kinds", async () => {
    const { declareCluster } = await registry().query<{
      declareCluster: { cluster: unknown; userErrors: UserErrorView[] };
    }>(DECLARE_CLUSTER, { input: { name: "c_nope", provider: "nope" } });
    expect(declareCluster).toEqual({
      created: null,
      cluster: null,
      userErrors: [
        {
          code: "INVALID_INPUT",
          field: ["input", "provider"],
          message: `unknown provider kind "nope"; loaded providers: kafka, registry-only, test`,
        },
      ],
    });
  });
});
