import { describe, expect, it } from "vitest";
import { keepStoredSecrets } from "../src/secret-write-back.ts";
import { coreSecretRule, isSecret, isSecretValue, REDACTED, redactSecrets } from "../src/secrets.ts";

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const JWT = `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ sub: "u1" })}.c2lnbmF0dXJl`;
const UNSIGNED_JWT = `${b64url({ alg: "none" })}.${b64url({ sub: "u1" })}.`;
const PEM_KEY = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n";
const BASIC = Buffer.from("svc:hunter2").toString("base64");

describe("isSecretValue: credentials by their shape, whatever their key", () => {
  it.each([
    ["a PEM private key", PEM_KEY],
    ["an RSA key", "-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----"],
    ["an encrypted key", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nabc"],
    ["a certificate bundle", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"],
    ["a PEM block inside text", `key follows: ${PEM_KEY}`],
    ["a Bearer token", "Bearer srt_8f2a91c4d7e0"],
    ["a Bearer token in lower case", "bearer abcDEF123456"],
    ["an Authorization header line", "Authorization: Bearer eyJhbGciOi.x-y_z"],
    ["a Basic credential", `Basic ${BASIC}`],
    ["a Basic header", `Authorization: BASIC ${BASIC}`],
    ["a JWT", JWT],
    ["an unsigned JWT", UNSIGNED_JWT],
    ["a JWT in a query string", `https://h/cb?id_token=${JWT}&x=1`],
  ])("recognizes %s", (_what, value) => {
    expect(isSecretValue(value)).toBe(true);
  });

  it.each([
    ["plain text", "widgets for the billing team"],
    ["prose about bearer tokens", "Bearer authentication."],
    ["prose about a scheme", "uses Bearer tokens"],
    ["a short word after Bearer", "Bearer x"],
    ["Basic as a word", "Basic plan"],
    ["Basic with no user:password in it", "Basic usage1"],
    ["a dotted name", "eyJ.not.a.jwt"],
    ["a dotted name that is not JSON", "eyJhbGciOi.abc.def"],
    ["a JWT-like value without alg", `${b64url({ typ: "JWT" })}.${b64url({ sub: "u1" })}.sig`],
    ["a PEM mention", "paste the -----BEGIN line here"],
    ["a URL with a user and no password", "postgresql://app@db:5432/x"],
    ["a host list", "broker-1:9092,broker-2:9092"],
  ])("leaves %s alone", (_what, value) => {
    expect(isSecretValue(value)).toBe(false);
  });
});

describe("isSecret: the one decision, by key or by value", () => {
  it("hides a value under a secret key whatever its shape, and a credential under any key", () => {
    expect(isSecret("m", "password", 1234, coreSecretRule)).toBe(true);
    expect(isSecret("m", "notes", PEM_KEY, coreSecretRule)).toBe(true);
    expect(isSecret("m", "notes", "hello", coreSecretRule)).toBe(false);
    expect(isSecret("m", "retries", 3, coreSecretRule)).toBe(false);
  });

  it("hides credentials under neutral and odd keys in what is shown, whole, and keeps the rest", () => {
    const maps = {
      vault: {
        notes: PEM_KEY,
        header: `Bearer ${"t0k".repeat(4)}`,
        session: JWT,
        Pass: "hunter2",
        "ssl.key": "k3y",
        keytab: "/etc/kt",
        dsn: "postgresql://app:pw-9@db/x",
        owner: "billing",
      },
    };
    expect(redactSecrets(maps)).toEqual({
      vault: {
        notes: REDACTED,
        header: REDACTED,
        session: REDACTED,
        Pass: REDACTED,
        "ssl.key": REDACTED,
        keytab: REDACTED,
        dsn: `postgresql://app:${REDACTED}@db/x`,
        owner: "billing",
      },
    });
  });

  it("writes back a credential recognized by its value as the stored one", () => {
    const stored = { vault: { notes: PEM_KEY, owner: "billing" } };
    const { maps, errors } = keepStoredSecrets(redactSecrets(stored), stored, coreSecretRule, ["input"]);
    expect(errors).toEqual([]);
    expect(maps).toEqual(stored);
  });
});
