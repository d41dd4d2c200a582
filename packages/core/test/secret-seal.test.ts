import { describe, expect, it } from "vitest";
import { newDataKey, openText, SecretBoxError, type Sealed } from "../src/secret-box.ts";
import {
  holdsClearSecrets,
  holdsSealedValues,
  openConfigSets,
  sealConfigSets,
  UnreadableSecrets,
  type ConfigSets,
} from "../src/secret-seal.ts";
import { coreSecretRule, redactSecrets } from "../src/secrets.ts";
import { keepStoredSecrets } from "../src/secret-write-back.ts";

const owner = { kind: "cluster", id: "0b5d6f7e-1111-4222-8333-444455556666" };
const clear: ConfigSets = {
  config: {
    "apache.kafka": { "bootstrap.servers": "b:9092", "sasl.password": "pw-1", "sasl.username": "app" },
    db: { url: "postgresql://app:pw-2@db:5432/x", port: 5432, "api.key": 42 },
  },
};
const FP = /^\*{8}:[0-9a-f]{12}$/;

describe("sealConfigSets", () => {
  const dataKey = newDataKey();
  const { shown, sealed, count } = sealConfigSets(clear, coreSecretRule, dataKey, owner);

  it("stores placeholders with fingerprints in place of secrets, everything else as given", () => {
    expect(count).toBe(3);
    const maps = shown.config!;
    expect(maps["apache.kafka"]).toMatchObject({ "bootstrap.servers": "b:9092", "sasl.username": "app" });
    expect(maps["apache.kafka"]!["sasl.password"]).toMatch(FP);
    expect(maps.db!.url).toMatch(/^postgresql:\/\/app:\*{8}:[0-9a-f]{12}@db:5432\/x$/);
    expect(maps.db!["api.key"]).toMatch(FP); // a number under a secret key is sealed too
    expect(maps.db!.port).toBe(5432);
    expect(JSON.stringify({ shown, sealed })).not.toMatch(/pw-1|pw-2/);
  });

  it("shows what is stored as it is: a query's redaction leaves it alone", () => {
    expect(redactSecrets(shown.config!)).toEqual(shown.config);
    expect(holdsClearSecrets(shown, coreSecretRule)).toBe(false);
    expect(holdsClearSecrets(clear, coreSecretRule)).toBe(true);
    expect(holdsSealedValues(shown)).toBe(true);
    expect(holdsSealedValues(clear)).toBe(false);
  });

  it("gives each sealing of a value a fingerprint of its own, the same value's too", () => {
    // An answer must not tell whether a secret given again was the stored one (a guess).
    const again = sealConfigSets(clear, coreSecretRule, dataKey, owner).shown;
    expect(again.config!["apache.kafka"]!["sasl.password"]).not.toBe(
      shown.config!["apache.kafka"]!["sasl.password"],
    );
    const changed = { config: { ...clear.config, "apache.kafka": { "sasl.password": "pw-9" } } };
    const other = sealConfigSets(changed, coreSecretRule, dataKey, owner).shown;
    expect(other.config!["apache.kafka"]!["sasl.password"]).not.toBe(
      shown.config!["apache.kafka"]!["sasl.password"],
    );
    const otherKey = sealConfigSets(clear, coreSecretRule, newDataKey(), owner).shown;
    expect(otherKey.config!.db!.url).not.toBe(shown.config!.db!.url);
  });

  it("opens what it sealed, values with their types", () => {
    expect(openConfigSets(shown, sealed, () => dataKey, owner, "cluster")).toEqual(clear);
  });

  it("never asks for the data key when nothing sealed is needed", () => {
    const plain = { config: { m: { host: "h" } } };
    const noKey = () => {
      throw new Error("asked for the key");
    };
    expect(openConfigSets(plain, {}, noKey, owner, "cluster")).toEqual(plain);
    // A secret given anew in place of a sealed one is taken as it is.
    const given = { config: { "apache.kafka": { "sasl.password": "new" } } };
    expect(openConfigSets(given, sealed, noKey, owner, "cluster")).toEqual(given);
  });

  it("refuses a sealed value moved to another key or object, naming the key, never the value", () => {
    const moved = structuredClone(sealed);
    moved.config!["apache.kafka"]!["sasl.username"] = moved.config!["apache.kafka"]!["sasl.password"]!;
    const swapped = {
      config: {
        ...shown.config,
        "apache.kafka": {
          ...shown.config!["apache.kafka"],
          "sasl.username": shown.config!["apache.kafka"]!["sasl.password"]!,
        },
      },
    };
    const error = unreadable(() => openConfigSets(swapped, moved, () => dataKey, owner, 'cluster "c1"'));
    expect(error.secrets.map((s) => s.key)).toEqual(["sasl.username"]);
    expect(error.message).toMatch(
      /^cluster "c1": secret config "apache.kafka"."sasl.username" cannot be decrypted: /,
    );
    const elsewhere = { ...owner, id: "0b5d6f7e-1111-4222-8333-000000000000" };
    const all = unreadable(() => openConfigSets(shown, sealed, () => dataKey, elsewhere, "cluster"));
    expect(all.secrets).toHaveLength(3);
    expect(all.message).not.toMatch(/pw-1|pw-2/);
  });

  it("refuses an altered ciphertext and a placeholder whose sealed value is missing", () => {
    const altered = structuredClone(sealed);
    const entry = altered.config!.db!.url!;
    const bytes = Buffer.from(entry.data, "base64");
    bytes[0]! ^= 1;
    altered.config!.db!.url = { ...entry, data: bytes.toString("base64") } satisfies Sealed;
    delete altered.config!["apache.kafka"];
    const error = unreadable(() => openConfigSets(shown, altered, () => dataKey, owner, "cluster"));
    expect(error.secrets.map((s) => [s.map, s.key, s.reason.split(":")[0]])).toEqual([
      ["apache.kafka", "sasl.password", "its sealed value is missing"],
      ["db", "url", "the value failed authentication"],
    ]);
  });

  it("reports a data key that cannot be unwrapped against every sealed value needed", () => {
    const unknownKey = () => {
      throw new SecretBoxError("unknown-key", 'it is wrapped with key id "k0", which is not configured');
    };
    const error = unreadable(() => openConfigSets(shown, sealed, unknownKey, owner, "cluster"));
    expect(error.secrets.map((s) => s.key)).toEqual(["sasl.password", "url", "api.key"]);
    expect(error.secrets.every((s) => s.reason.includes('key id "k0"'))).toBe(true);
    // Anything else is a bug, not an unreadable secret: it is not dressed up as one.
    const bug = () => {
      throw new TypeError("bug");
    };
    expect(() => openConfigSets(shown, sealed, bug, owner, "cluster")).toThrow(TypeError);
  });

  it("seals under the object's identity: another set, map or key is other associated data", () => {
    const entry = sealed.config!["apache.kafka"]!["sasl.password"]!;
    const aad = JSON.stringify(["cluster", owner.id, "config", "apache.kafka", "sasl.password"]);
    expect(JSON.parse(openText(dataKey, entry, aad))).toBe("pw-1");
  });
});

describe("writing back what a query showed of sealed values", () => {
  const dataKey = newDataKey();
  const stored = sealConfigSets(clear, coreSecretRule, dataKey, owner).shown.config!;
  const field = ["input", "config"];

  it("keeps a value given as shown, or as the plain placeholder", () => {
    const plain = {
      "apache.kafka": { ...stored["apache.kafka"], "sasl.password": "********" },
      db: { ...stored.db, url: "postgresql://app:********@db:5432/x" },
    };
    for (const given of [stored, plain]) {
      expect(keepStoredSecrets(given, stored, coreSecretRule, field)).toEqual({ maps: stored, errors: [] });
    }
  });

  it("refuses another fingerprint: the secret changed since it was read", () => {
    const stale = { "apache.kafka": { "sasl.password": "********:000000000000" } };
    const { errors } = keepStoredSecrets(stale, stored, coreSecretRule, field);
    expect(errors.map((e) => e.field)).toEqual([["input", "config", "apache.kafka", "sasl.password"]]);
    expect(errors[0]?.message).toContain("the secret changed since it was read");
  });
});

function unreadable(fn: () => unknown): UnreadableSecrets {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadableSecrets);
    return error as UnreadableSecrets;
  }
  throw new Error("expected UnreadableSecrets");
}
