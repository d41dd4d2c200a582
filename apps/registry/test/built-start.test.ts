import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchRegistry } from "@stream-registry/testkit";

const repoRoot = path.resolve(import.meta.dirname, "../../..");

// `npm start` runs the registry built by esbuild (apps/registry/bin), not its sources under tsx:
// what a user's provider module and an operator reading a stack trace get must be as before.
describe("npm start runs the built registry", { timeout: 240_000 }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "sr-built-start-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("gives a provider module in TypeScript the registry's own workspace packages", async () => {
    const fixture = path.join(import.meta.dirname, "fixtures", "shared-packages-provider.ts");
    const started = launchRegistry(
      { REGISTRY_DATA_DIR: dataDir, REGISTRY_PROVIDERS: `./${path.relative(repoRoot, fixture)}` },
      "npm start",
    );
    try {
      expect(await started.started, started.logs.join("\n")).toBeDefined();
      const entry = started.entries().find((e) => e.msg === "registry started");
      expect(entry?.providers).toContain("shared-packages");
    } finally {
      started.kill("SIGTERM");
      await started.exited;
    }
  });

  it("names the TypeScript sources in the stack traces it logs", async () => {
    const started = launchRegistry(
      { REGISTRY_DATA_DIR: dataDir, REGISTRY_PROVIDERS: "./no-such-provider.ts" },
      "npm start",
    );
    expect(await started.started).toBeUndefined();
    expect(await started.exited).not.toBe(0);
    const fatal = started.entries().find((e) => e.msg === "registry failed to start");
    const stack = (fatal?.err as { stack?: string } | undefined)?.stack ?? "";
    const frames = stack.split("\n").filter((line) => line.trim().startsWith("at "));
    expect(frames[0]).toContain(path.join("apps", "registry", "src", "providers", "load-providers.ts"));
    const built = path.join("apps", "registry", "dist");
    expect(frames.filter((frame) => frame.includes(built))).toEqual([]);
  });
});
