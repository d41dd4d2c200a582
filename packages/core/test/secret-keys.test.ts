import { describe, expect, it } from "vitest";
import { declaredSecretKeys, isSecretKey, keyWords } from "../src/secret-keys.ts";

describe("isSecretKey", () => {
  // Twenty common spellings of a secret's key: separators ".", "_", "-", camelCase, any case.
  it.each([
    "password",
    "db_password",
    "sasl.password",
    "adminPassword",
    "ssl.key.password",
    "passphrase",
    "client_secret",
    "aws.secret.access.key",
    "api.key",
    "api-key",
    "apiKey",
    "private.key",
    "access_token",
    "auth.token",
    "credentials",
    "SASL_JAAS_CONFIG",
    "sasl.jaas.config",
    "authorization",
    "basic.auth.user.info",
    "ssl.keystore.key",
  ])("treats %j as secret", (key) => {
    expect(isSecretKey(key)).toBe(true);
  });

  it.each([
    "PASSWORD",
    "db.Password",
    "passwd",
    "db.pwd",
    "X-API-KEY",
    "datadog.ApiKey",
    "APIKey",
    "secretKey",
    "SharedAccessKey",
    "AccountKey",
    "dbpassword",
    "oauth2AccessToken",
    "sasl.oauthbearer.client.credentials.client.secret",
    "listener.name.sasl_ssl.plain.sasl.jaas.config",
    "schema.registry.basic.auth.user.info",
    "ssh.private_key",
    "aws.credential",
    "spring:datasource:password",
    "passwords",
    // Issue 19: spellings that leaked.
    "auth",
    "http.auth",
    "cred",
    "db.creds",
    "credential",
    "Pass",
    "sasl.pass",
    "PASSWD",
    "keytab",
    "sasl.kerberos.keytab",
    "ssl.key",
    "SSL_KEY",
    "private",
    "signing.private",
    "signature",
    "webhookSignature",
    "ssl.keystore.password",
    "db_password",
    "apiKey",
    "api-key",
  ])("treats %j as secret too", (key) => {
    expect(isSecretKey(key)).toBe(true);
  });

  // Keys that describe a secret, or use "key" for a record's key, are not secrets.
  it.each([
    "key",
    "key.serializer",
    "key.converter",
    "key.serde",
    "partition.key",
    "message.key.field",
    "record.key",
    "keystore.type",
    "ssl.keystore.type",
    "ssl.keystore.location",
    "ssl.truststore.location",
    "ssl.keystore.certificate.chain",
    "password.encoder.keylength",
    "password.file",
    "token.expiry.ms",
    "sasl.oauthbearer.token.endpoint.url",
    "secret.rotation.days",
    "basic.auth.credentials.source",
    "private.key.id",
    "tokens.count",
    "security.protocol",
    "sasl.mechanism",
    "sasl.username",
    "connection.url",
    "bootstrap.servers",
    "owner",
    "costcenter",
    "cwd",
    // Words that hold a secret word inside them, or end a key that describes one.
    "passthrough",
    "passThrough",
    "pass.through",
    "bypass",
    "compass.heading",
    "oauth",
    "ssl.client.auth",
    "auth.type",
    "authMode",
    "credit.limit",
    "incredible",
    "signature.algorithm",
    "keytab.location.hint",
    "",
  ])("treats %j as ordinary", (key) => {
    expect(isSecretKey(key)).toBe(false);
  });
});

describe("keyWords", () => {
  it("splits at separators and camelCase humps, lowercase", () => {
    expect(keyWords("aws.secret_access-key")).toEqual(["aws", "secret", "access", "key"]);
    expect(keyWords("adminPassword")).toEqual(["admin", "password"]);
    expect(keyWords("APIKey")).toEqual(["api", "key"]);
    expect(keyWords("SASL_JAAS_CONFIG")).toEqual(["sasl", "jaas", "config"]);
    expect(keyWords("..")).toEqual([]);
  });
});

describe("declaredSecretKeys", () => {
  const declared = declaredSecretKeys(["session.cookie", " ", "ticket"]);

  it.each(["session.cookie", "http.sessionCookie", "SESSION_COOKIE", "ticket", "kerberos-Ticket"])(
    "matches %j by its last words, in any case and spelling",
    (key) => expect(declared(key)).toBe(true),
  );

  it.each(["session", "cookie.session", "session.cookie.name", "tickets", "ticketing"])(
    "leaves %j alone",
    (key) => expect(declared(key)).toBe(false),
  );

  it("declares nothing when given no names", () => {
    expect(declaredSecretKeys([])("password")).toBe(false);
  });
});
