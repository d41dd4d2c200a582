import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AuthenticationError } from "../src/auth/authentication-error.ts";
import { loadConfig } from "../src/config.ts";

const cwd = path.resolve("/srv/registry");
const TOKEN = "srt_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";

describe("authentication settings", () => {
  it("listens on loopback with authentication on, and no token or issuer, by default", () => {
    const config = loadConfig({}, cwd);
    expect(config.host).toBe("127.0.0.1");
    expect(config.auth).toEqual({ mode: "on", adminToken: undefined, oidc: undefined });
  });

  it("takes REGISTRY_AUTH on or none, and nothing else, naming the variable", () => {
    expect(loadConfig({ REGISTRY_AUTH: "none" }, cwd).auth.mode).toBe("none");
    expect(() => loadConfig({ REGISTRY_AUTH: "off" }, cwd)).toThrow(/REGISTRY_AUTH: /);
  });

  it("refuses REGISTRY_AUTH=none in production", () => {
    expect(() => loadConfig({ REGISTRY_AUTH: "none", NODE_ENV: "production" }, cwd)).toThrow(
      /REGISTRY_AUTH: none is refused when NODE_ENV=production/,
    );
    expect(loadConfig({ NODE_ENV: "production" }, cwd).auth.mode).toBe("on");
  });

  it("takes an admin token of the API token's shape, from the variable or a file, not both", async () => {
    expect(loadConfig({ REGISTRY_ADMIN_TOKEN: TOKEN }, cwd).auth.adminToken).toBe(TOKEN);
    expect(loadConfig({ REGISTRY_ADMIN_TOKEN: "" }, cwd).auth.adminToken).toBeUndefined();
    expect(() => loadConfig({ REGISTRY_ADMIN_TOKEN: "hunter2" }, cwd)).toThrow(
      /REGISTRY_ADMIN_TOKEN: must be "srt_" followed by at least 32 base64url characters/,
    );
    const dir = await mkdtemp(path.join(tmpdir(), "sr-token-"));
    try {
      await writeFile(path.join(dir, "admin-token"), `${TOKEN}\n`);
      expect(loadConfig({ REGISTRY_ADMIN_TOKEN_FILE: "admin-token" }, dir).auth.adminToken).toBe(TOKEN);
      await writeFile(path.join(dir, "bad"), "short\n");
      expect(() => loadConfig({ REGISTRY_ADMIN_TOKEN_FILE: "bad" }, dir)).toThrow(
        /REGISTRY_ADMIN_TOKEN_FILE: the file's content must be/,
      );
      expect(() => loadConfig({ REGISTRY_ADMIN_TOKEN_FILE: "missing" }, dir)).toThrow(
        /REGISTRY_ADMIN_TOKEN_FILE: cannot read missing/,
      );
      expect(() =>
        loadConfig({ REGISTRY_ADMIN_TOKEN: TOKEN, REGISTRY_ADMIN_TOKEN_FILE: "admin-token" }, dir),
      ).toThrow(/set it or REGISTRY_ADMIN_TOKEN, not both/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("needs an audience with an OIDC issuer", () => {
    expect(() => loadConfig({ REGISTRY_OIDC_ISSUER: "https://idp.example" }, cwd)).toThrow(
      /REGISTRY_OIDC_AUDIENCE: required with REGISTRY_OIDC_ISSUER/,
    );
    expect(() => loadConfig({ REGISTRY_OIDC_ISSUER: "ftp://idp" }, cwd)).toThrow(
      /REGISTRY_OIDC_ISSUER: must be an http\(s\) URL/,
    );
    expect(
      loadConfig({ REGISTRY_OIDC_ISSUER: "https://idp.example", REGISTRY_OIDC_AUDIENCE: "registry" }, cwd)
        .auth.oidc,
    ).toEqual({
      issuer: "https://idp.example",
      audience: "registry",
      jwksUrl: undefined,
      groupsClaim: "groups",
    });
  });
});

describe("AuthenticationError", () => {
  it("challenges without an error when no credential came, and names the reason otherwise, quoted safely", () => {
    expect(new AuthenticationError("no Authorization header", false).challenge).toBe(
      'Bearer realm="stream-registry"',
    );
    expect(new AuthenticationError('wrong issuer: "x"\n').challenge).toBe(
      `Bearer realm="stream-registry", error="invalid_token", error_description="wrong issuer: 'x''"`,
    );
  });
});
