import { describe, expect, it } from "vitest";
import {
  formatSecretKey,
  generateSecretKey,
  Keyring,
  newDataKey,
  openText,
  parseSecretKeys,
  SecretBoxError,
  sealText,
  fingerprint,
  type Sealed,
} from "../src/secret-box.ts";

const k1 = generateSecretKey("k1");
const k2 = generateSecretKey("k2");
const owner = JSON.stringify(["cluster", "8b0e7c1e-0000-4000-8000-000000000001"]);
const other = JSON.stringify(["cluster", "8b0e7c1e-0000-4000-8000-000000000002"]);

/** `sealed` with one bit of `part` flipped. */
function flip<T extends Sealed>(sealed: T, part: keyof Sealed): T {
  const bytes = Buffer.from(sealed[part], "base64");
  bytes[0]! ^= 1;
  return { ...sealed, [part]: bytes.toString("base64") };
}

function refusal(fn: () => unknown): SecretBoxError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SecretBoxError);
    return error as SecretBoxError;
  }
  throw new Error("expected a SecretBoxError");
}

describe("sealText / openText", () => {
  const dataKey = newDataKey();

  it("round-trips, with a new IV each time", () => {
    const a = sealText(dataKey, "pa55 wörd", "where");
    const b = sealText(dataKey, "pa55 wörd", "where");
    expect(a.iv).not.toBe(b.iv);
    expect(a.data).not.toBe(b.data);
    expect(openText(dataKey, a, "where")).toBe("pa55 wörd");
    expect(JSON.stringify(a)).not.toContain("pa55");
  });

  it.each(["iv", "data", "tag"] as const)("refuses a ciphertext whose %s was altered", (part) => {
    const sealed = sealText(dataKey, "secret", "where");
    const error = refusal(() => openText(dataKey, flip(sealed, part), "where"));
    expect(error.reason).toBe("tampered");
    expect(error.message).toContain("failed authentication");
    expect(error.message).not.toContain('secret"');
  });

  it("refuses other associated data: a ciphertext moved to another object or key", () => {
    const sealed = sealText(dataKey, "secret", JSON.stringify(["cluster", "a", "config", "m", "password"]));
    const moved = JSON.stringify(["cluster", "a", "config", "m", "token"]);
    expect(refusal(() => openText(dataKey, sealed, moved)).reason).toBe("tampered");
  });

  it("refuses another data key, and parts that are not base64 of the right size", () => {
    const sealed = sealText(dataKey, "secret", "where");
    expect(refusal(() => openText(newDataKey(), sealed, "where")).reason).toBe("tampered");
    expect(refusal(() => openText(dataKey, { ...sealed, iv: "AAAA" }, "where")).reason).toBe("tampered");
    expect(refusal(() => openText(dataKey, { ...sealed, tag: "not base64!" }, "where")).reason).toBe(
      "tampered",
    );
  });
});

describe("fingerprint", () => {
  it("is 12 hex digits, the same for the same value, place and key, different otherwise", () => {
    const dataKey = newDataKey();
    const fp = fingerprint(dataKey, "v", "here");
    expect(fp).toMatch(/^[0-9a-f]{12}$/);
    expect(fingerprint(dataKey, "v", "here")).toBe(fp);
    expect(fingerprint(dataKey, "w", "here")).not.toBe(fp);
    expect(fingerprint(dataKey, "v", "there")).not.toBe(fp);
    expect(fingerprint(newDataKey(), "v", "here")).not.toBe(fp);
  });
});

describe("Keyring", () => {
  it("wraps with the first key and unwraps with any configured", () => {
    const dataKey = newDataKey();
    const wrapped = new Keyring([k1, k2]).wrap(dataKey, owner);
    expect(wrapped.kid).toBe("k1");
    expect(new Keyring([k2, k1]).unwrap(wrapped, owner).equals(dataKey)).toBe(true);
  });

  it("refuses a key id that is not configured, naming it and how to fix it", () => {
    const wrapped = new Keyring([k1]).wrap(newDataKey(), owner);
    const error = refusal(() => new Keyring([k2]).unwrap(wrapped, owner));
    expect(error.reason).toBe("unknown-key");
    expect(error.message).toContain('key id "k1", which is not configured (configured: k2)');
    expect(error.message).toContain("REGISTRY_SECRET_KEYS");
  });

  it("refuses a wrapped key relabelled with another configured key id, another owner, or altered", () => {
    const keyring = new Keyring([k1, k2]);
    const wrapped = keyring.wrap(newDataKey(), owner);
    expect(refusal(() => keyring.unwrap({ ...wrapped, kid: "k2" }, owner)).reason).toBe("tampered");
    expect(refusal(() => keyring.unwrap(wrapped, other)).reason).toBe("tampered");
    expect(refusal(() => keyring.unwrap(flip(wrapped, "data"), owner)).reason).toBe("tampered");
  });

  it("rewraps a data key with the current key; values sealed under it stay readable", () => {
    const dataKey = newDataKey();
    const value = sealText(dataKey, "secret", "where");
    const old = new Keyring([k1]).wrap(dataKey, owner);
    const rotated = new Keyring([k2, k1]).rewrap(old, owner);
    expect(rotated.kid).toBe("k2");
    // After rotation the old key can go.
    const unwrapped = new Keyring([k2]).unwrap(rotated, owner);
    expect(openText(unwrapped, value, "where")).toBe("secret");
    // The old wrapping still needs the old key.
    expect(refusal(() => new Keyring([k2]).unwrap(old, owner)).reason).toBe("unknown-key");
  });

  it("refuses an empty list, duplicate ids, bad ids and keys of the wrong size", () => {
    expect(() => new Keyring([])).toThrow("at least one key");
    expect(() => new Keyring([k1, k1])).toThrow('key id "k1" is given twice');
    expect(() => new Keyring([{ kid: "a b", key: k1.key }])).toThrow("must be 1 to 64 letters");
    expect(() => new Keyring([{ kid: "short", key: Buffer.alloc(16) }])).toThrow("16 bytes; it must have 32");
  });
});

describe("parseSecretKeys", () => {
  it("reads kid:base64 entries, by commas or lines, comments skipped, order kept", () => {
    // A comment may hold commas (the generated key file's does).
    const text = `# rotated 2026-12, by ops\n${formatSecretKey(k2)}\n\n${formatSecretKey(k1)}`;
    expect(parseSecretKeys(text, "file").kids()).toEqual(["k2", "k1"]);
    const keyring = parseSecretKeys(`${formatSecretKey(k1)} , ${formatSecretKey(k2)}`, "env");
    expect(keyring.kids()).toEqual(["k1", "k2"]);
    expect(keyring.current.key.equals(k1.key)).toBe(true);
    const url = `k3:${k1.key.toString("base64url")}`;
    expect(parseSecretKeys(url, "env").current.key.equals(k1.key)).toBe(true);
  });

  it("names the entry and the rule, never the key material", () => {
    const short = Buffer.alloc(16, 7).toString("base64");
    const cases: [string, string][] = [
      ["", "REGISTRY_SECRET_KEYS holds no key"],
      ["nocolon", 'entry 1 must be "kid:base64-of-32-bytes"'],
      [`${formatSecretKey(k1)},bad id:${short}`, "entry 2: its key id must be"],
      [`k9:${short}`, 'entry 1 (key id "k9"): the key has 16 bytes; it must have 32'],
      ["k9:!!!", 'entry 1 (key id "k9"): the key must be base64'],
      [`${formatSecretKey(k1)},${formatSecretKey(k1)}`, 'key id "k1" is given twice'],
    ];
    for (const [text, message] of cases) {
      let thrown: Error | undefined;
      try {
        parseSecretKeys(text, "REGISTRY_SECRET_KEYS");
      } catch (error) {
        thrown = error as Error;
      }
      expect(thrown?.message).toContain(message);
      expect(thrown?.message).toContain("REGISTRY_SECRET_KEYS");
      expect(thrown?.message).not.toContain(short);
      expect(thrown?.message).not.toContain(k1.key.toString("base64"));
    }
  });
});
