import { describe, expect, it } from "vitest";
import type { ConfigMaps } from "../src/config-maps.ts";
import { ErrorCode } from "../src/errors.ts";
import { keepStoredSecrets } from "../src/secret-write-back.ts";
import {
  REDACTED,
  coreSecretRule,
  givesSecrets,
  redactEmbeddedCredentials,
  redactSecrets,
  type SecretKeyRule,
} from "../src/secrets.ts";

describe("redactSecrets", () => {
  it("replaces secret values of any type and keeps the rest, order included", () => {
    const maps: ConfigMaps = {
      "apache.kafka": {
        "security.protocol": "SASL_SSL",
        "sasl.jaas.config":
          'org.apache.kafka.common.security.plain.PlainLoginModule required password="hunter2";',
        "ssl.key.password": 1234,
        acks: "all",
      },
      "s3-sink": { "aws.secret": true, bucket: "widgets" },
    };
    const redacted = redactSecrets(maps);
    expect(redacted).toEqual({
      "apache.kafka": {
        "security.protocol": "SASL_SSL",
        "sasl.jaas.config": REDACTED,
        "ssl.key.password": REDACTED,
        acks: "all",
      },
      "s3-sink": { "aws.secret": REDACTED, bucket: "widgets" },
    });
    expect(REDACTED).toBe("********");
    expect(Object.keys(redacted["apache.kafka"] ?? {})).toEqual(Object.keys(maps["apache.kafka"] ?? {}));
    expect(JSON.stringify(redacted)).not.toContain("hunter2");
    expect(maps["apache.kafka"]?.["ssl.key.password"]).toBe(1234); // input untouched
  });

  it("applies a provider's rule by map and key on top of core's", () => {
    const rule: SecretKeyRule = (map, key) =>
      (map === "acme.kafka" && key === "webhook") || coreSecretRule(map, key);
    const maps = { "acme.kafka": { webhook: "https://hooks/x", team: "t" }, other: { webhook: "w" } };
    expect(redactSecrets(maps, rule)).toEqual({
      "acme.kafka": { webhook: REDACTED, team: "t" },
      other: { webhook: "w" },
    });
  });

  it("hides the password part of connection strings under any key", () => {
    const maps = { jdbc: { "connection.url": "jdbc:postgresql://user:pw@host:5432/db", note: "no secret" } };
    expect(redactSecrets(maps)).toEqual({
      jdbc: { "connection.url": `jdbc:postgresql://user:${REDACTED}@host:5432/db`, note: "no secret" },
    });
  });
});

describe("what a query shows of sealed values", () => {
  const fp = `${REDACTED}:3f9a1c2b7d4e`;

  it("is shown again as it is: a placeholder with its fingerprint is never redacted further", () => {
    const shown = {
      db: {
        password: fp,
        plain: REDACTED,
        url: `postgresql://u:${fp}@h/db`,
        jdbc: `jdbc:sqlserver://h;user=sa;password=${fp};db=x`,
        quoted: `host=h password='${fp}' dbname=x`,
      },
    };
    expect(redactSecrets(shown)).toEqual(shown);
    expect(givesSecrets(shown)).toBe(false);
  });

  it("still hides what only looks like one: a fingerprint of the wrong size, or text around it", () => {
    expect(redactSecrets({ m: { password: `${REDACTED}:3f9a`, token: `x${fp}` } })).toEqual({
      m: { password: REDACTED, token: REDACTED },
    });
    expect(redactEmbeddedCredentials(`postgresql://u:${fp}x@h/db`)).toBe(`postgresql://u:${REDACTED}@h/db`);
    expect(redactEmbeddedCredentials("postgresql://u:pw@h/db", fp)).toBe(`postgresql://u:${fp}@h/db`);
  });
});

describe("redactEmbeddedCredentials", () => {
  it.each([
    ["postgresql://u:p@h/db", `postgresql://u:${REDACTED}@h/db`],
    ["redis://:s3cret@cache:6379", `redis://:${REDACTED}@cache:6379`],
    ["https://u:p@ss@h/x", `https://u:${REDACTED}@h/x`],
    [
      "jdbc:postgresql://h/db?user=u&password=p&ssl=true",
      `jdbc:postgresql://h/db?user=u&password=${REDACTED}&ssl=true`,
    ],
    ["jdbc:sqlserver://h;user=sa;password=p;db=x", `jdbc:sqlserver://h;user=sa;password=${REDACTED};db=x`],
    ["Server=h;Uid=u;Pwd=p;", `Server=h;Uid=u;Pwd=${REDACTED};`],
    ["host=h password='a b' dbname=x", `host=h password='${REDACTED}' dbname=x`],
    ["https://h/x?api_key=k&q=1", `https://h/x?api_key=${REDACTED}&q=1`],
    [
      'PlainLoginModule required username="u" password="p";',
      `PlainLoginModule required username="u" password="${REDACTED}";`,
    ],
  ])("redacts %j", (value, shown) => {
    expect(redactEmbeddedCredentials(value)).toBe(shown);
    expect(redactEmbeddedCredentials(shown)).toBe(shown); // what a query shows is stable
  });

  it.each(["postgresql://u@h/db", "https://h:8443/x?user=u", "key.serializer=x", "password=", "plain text"])(
    "leaves %j alone",
    (value) => expect(redactEmbeddedCredentials(value)).toBe(value),
  );
});

describe("givesSecrets", () => {
  it("is true for a secret in clear, false for placeholders and public values", () => {
    expect(givesSecrets({ m: { password: "p" } })).toBe(true);
    expect(givesSecrets({ m: { url: "postgresql://u:p@h/db" } })).toBe(true);
    expect(givesSecrets({ m: { password: REDACTED, url: `postgresql://u:${REDACTED}@h/db` } })).toBe(false);
    expect(givesSecrets({ m: { partitions: 3, team: "t" } })).toBe(false);
  });
});

describe("keepStoredSecrets", () => {
  const stored: ConfigMaps = {
    db: { password: "real", url: "postgresql://u:pw@h/db", partitions: 3 },
  };
  const keep = (given: ConfigMaps) => keepStoredSecrets(given, stored, coreSecretRule, ["input", "config"]);

  it("puts the stored value back where the given one is what a query shows", () => {
    const given = { db: { password: REDACTED, url: `postgresql://u:${REDACTED}@h/db`, partitions: 4 } };
    expect(keep(given)).toEqual({
      maps: { db: { password: "real", url: "postgresql://u:pw@h/db", partitions: 4 } },
      errors: [],
    });
  });

  it("takes new values and left-out keys as they are", () => {
    expect(keep({ db: { password: "new" } })).toEqual({ maps: { db: { password: "new" } }, errors: [] });
  });

  it("refuses a placeholder with nothing to keep, or one edited around, naming the field", () => {
    const { errors } = keep({
      db: { token: REDACTED, url: `postgresql://u:${REDACTED}@other/db` },
      other: { password: REDACTED },
    });
    expect(errors.map((e) => [e.code, e.field])).toEqual([
      [ErrorCode.INVALID_INPUT, ["input", "config", "db", "token"]],
      [ErrorCode.INVALID_INPUT, ["input", "config", "db", "url"]],
      [ErrorCode.INVALID_INPUT, ["input", "config", "other", "password"]],
    ]);
    expect(errors[0]?.message).toContain("nothing is stored under that key to keep");
    expect(errors[1]?.message).toContain("not what a query shows for the stored value");
  });

  it("never reads inherited properties as stored values", () => {
    expect(keep({ constructor: { toString: REDACTED } }).errors).toHaveLength(1);
  });
});
