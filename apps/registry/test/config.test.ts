import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";

const cwd = path.resolve("/srv/registry");

describe("loadConfig", () => {
  it("has defaults for everything", () => {
    const config = loadConfig({}, cwd);
    expect(config).toMatchObject({
      port: 4000,
      host: "127.0.0.1",
      databaseUrl: undefined,
      dataDir: path.join(cwd, ".data"),
      providerModules: [],
      production: false,
      logLevel: "info",
      reconciler: { enabled: true },
    });
  });

  it("takes a postgresql:// DATABASE_URL and refuses anything else, naming the variable and the rule", () => {
    const url = "postgresql://app@db:5432/registry";
    expect(loadConfig({ DATABASE_URL: url }, cwd).databaseUrl).toBe(url);
    expect(() => loadConfig({ DATABASE_URL: "mysql://app@db/registry" }, cwd)).toThrow(
      "DATABASE_URL: must be a postgresql:// URL",
    );
  });

  it("refuses a PORT that is not a number, naming PORT", () => {
    expect(() => loadConfig({ PORT: "abc" }, cwd)).toThrow(/^invalid configuration:\n {2}PORT: /);
    expect(() => loadConfig({ PORT: "70000" }, cwd)).toThrow(/PORT: /);
  });

  it("lists every bad variable in one error", () => {
    expect(() => loadConfig({ PORT: "abc", LOG_LEVEL: "loud" }, cwd)).toThrow(/PORT: .*\n {2}LOG_LEVEL: /s);
  });

  it("splits REGISTRY_PROVIDERS on commas, trimmed, without empty entries", () => {
    const config = loadConfig({ REGISTRY_PROVIDERS: " @acme/kafka-provider, ./providers/local.ts ,," }, cwd);
    expect(config.providerModules).toEqual(["@acme/kafka-provider", "./providers/local.ts"]);
  });

  it("resolves REGISTRY_DATA_DIR against the given cwd, and keeps an absolute one", () => {
    expect(loadConfig({ REGISTRY_DATA_DIR: "state/pg" }, cwd).dataDir).toBe(path.join(cwd, "state", "pg"));
    expect(loadConfig({ REGISTRY_DATA_DIR: "/var/lib/registry" }, cwd).dataDir).toBe("/var/lib/registry");
  });

  it("is in production only when NODE_ENV says so", () => {
    expect(loadConfig({ NODE_ENV: "production" }, cwd).production).toBe(true);
    expect(loadConfig({ NODE_ENV: "test" }, cwd).production).toBe(false);
  });
});
