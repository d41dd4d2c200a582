import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatSecretKey, generateSecretKey } from "@stream-registry/core";
import { loadConfig } from "../src/config.ts";

const dir = mkdtempSync(path.join(tmpdir(), "secret-keys-config-"));
const k1 = generateSecretKey("k1");
const k2 = generateSecretKey("k2");

describe("REGISTRY_SECRET_KEYS and REGISTRY_SECRET_KEYS_FILE", () => {
  it("are optional: none configured (start-up decides, by database)", () => {
    expect(loadConfig({}, dir).secretKeys).toEqual({ keyring: undefined, source: undefined });
    expect(
      loadConfig({ REGISTRY_SECRET_KEYS: "", REGISTRY_SECRET_KEYS_FILE: "" }, dir).secretKeys.keyring,
    ).toBe(undefined);
  });

  it("take kid:base64 entries, the first one current", () => {
    const { keyring, source } = loadConfig(
      { REGISTRY_SECRET_KEYS: `${formatSecretKey(k2)},${formatSecretKey(k1)}` },
      dir,
    ).secretKeys;
    expect(source).toBe("REGISTRY_SECRET_KEYS");
    expect(keyring?.kids()).toEqual(["k2", "k1"]);
    expect(keyring?.current.key.equals(k2.key)).toBe(true);
  });

  it("read a file relative to the working directory, one key a line", () => {
    writeFileSync(path.join(dir, "keys"), `# rotated\n${formatSecretKey(k1)}\n${formatSecretKey(k2)}\n`);
    const { keyring, source } = loadConfig({ REGISTRY_SECRET_KEYS_FILE: "keys" }, dir).secretKeys;
    expect(source).toBe(path.join(dir, "keys"));
    expect(keyring?.kids()).toEqual(["k1", "k2"]);
  });

  it("refuse both at once, a file that cannot be read, and a bad entry, naming the variable", () => {
    const both = { REGISTRY_SECRET_KEYS: formatSecretKey(k1), REGISTRY_SECRET_KEYS_FILE: "keys" };
    expect(() => loadConfig(both, dir)).toThrow(
      "invalid configuration:\n  REGISTRY_SECRET_KEYS_FILE: set it or REGISTRY_SECRET_KEYS, not both",
    );
    expect(() => loadConfig({ REGISTRY_SECRET_KEYS_FILE: "missing" }, dir)).toThrow(
      /^invalid configuration:\n {2}REGISTRY_SECRET_KEYS_FILE: cannot read .*missing/,
    );
    writeFileSync(path.join(dir, "bad"), "k1:c2hvcnQ=\n");
    expect(() => loadConfig({ REGISTRY_SECRET_KEYS_FILE: "bad" }, dir)).toThrow(
      /REGISTRY_SECRET_KEYS_FILE \(.*bad\): entry 1 \(key id "k1"\): the key has 5 bytes; it must have 32/,
    );
    expect(() => loadConfig({ REGISTRY_SECRET_KEYS: "k1" }, dir)).toThrow(
      'invalid configuration:\n  REGISTRY_SECRET_KEYS: entry 1 must be "kid:base64-of-32-bytes"',
    );
  });
});
