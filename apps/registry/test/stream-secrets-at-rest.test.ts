import { describe, expect, it } from "vitest";
import { formatSecretKey, generateSecretKey, isSecretKey, parseSecretKeys } from "@stream-registry/core";
import { sealStoredSecrets } from "@stream-registry/store";
import {
  databaseKinds,
  mutate,
  testPlatform,
  BINDING,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  UPDATE_BINDING,
  UPDATE_STREAM,
  type BindingView,
  eventually,
} from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";
import { prismaOf } from "@stream-registry/store/testing";

// Issue 19: a stream's and a binding's secrets, by key or by shape, are sealed at rest like a
// cluster's; every answer and stored copy shows placeholders, and the provider gets the values.

type Maps = Record<string, Record<string, string | number | boolean>>;
const FP = /^\*{8}:[0-9a-f]{12}$/;
const KEYS = formatSecretKey(generateSecretKey("k1"));

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const S = {
  pem: "MIIsecretPemBody0001",
  bearer: "tok-bearer-0002x",
  jwt: "c2lnLXNlY3JldC0wMDAz",
  pass: "pw-pass-0004",
  sslKey: "pw-sslkey-0005",
  auth: "pw-auth-0006",
  cred: "pw-cred-0007",
  basic: Buffer.from("svc:pw-basic-0008").toString("base64"),
  later: "pw-later-0009",
  ticket: "pw-ticket-0010",
};
const SECRETS = Object.values(S);
const streamVault = {
  notes: `-----BEGIN PRIVATE KEY-----\n${S.pem}\n-----END PRIVATE KEY-----\n`,
  header: `Bearer ${S.bearer}`,
  session: `${b64url({ alg: "HS256" })}.${b64url({ sub: "u" })}.${S.jwt}`,
  Pass: S.pass,
  "ssl.key": S.sslKey,
  // Declared by the admin: REGISTRY_SECRET_KEY_NAMES=ticket.
  kerberosTicket: S.ticket,
  owner: "billing",
};
const bindingVault = { auth: S.auth, cred: S.cred, blob: `Basic ${S.basic}`, region: "eu" };

/** Every row of the tables a stream's or a binding's secret could reach, as text, read with SQL. */
async function rows(r: TestRegistry): Promise<string> {
  const found = await prismaOf(r.db.prisma).$queryRawUnsafe<{ row: string }[]>(`
    SELECT row_to_json(s)::text AS row FROM stream s
    UNION ALL SELECT row_to_json(b)::text FROM binding b
    UNION ALL SELECT row_to_json(e)::text FROM secret_envelope e
    UNION ALL SELECT row_to_json(l)::text FROM change l
    UNION ALL SELECT row_to_json(j)::text FROM job j`);
  return found.map((row) => row.row).join("\n");
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

async function online(r: TestRegistry, stream: string, cluster: string): Promise<BindingView> {
  return eventually(async () => {
    const { binding } = await r.query<{ binding: BindingView }>(BINDING, { stream, cluster });
    const { phase, generation, observedGeneration } = binding.status;
    return phase === "ONLINE" && observedGeneration === generation ? binding : undefined;
  });
}

const READ = `query($s: String!, $c: String!) {
  stream(name: $s) { config generation }
  binding(stream: $s, cluster: $c) { config }
  changes(first: 500) { nodes { data } } }`;
type Read = {
  stream: { config: Maps; generation: number };
  binding: { config: Maps };
  changes: { nodes: { data: unknown }[] };
};

describe.each(databaseKinds)("stream and binding secrets at rest on %s", (kind) => {
  const registry = useTestRegistry(kind, { REGISTRY_SECRET_KEYS: KEYS, REGISTRY_SECRET_KEY_NAMES: "ticket" });

  it("seals them by key and by shape, shows placeholders everywhere, realizes the values, and keeps them on write-back", async () => {
    const r = registry();
    const [cluster, stream] = [`c-${kind}`, `s_sealed_${kind}`];
    await mutate(r, DECLARE_CLUSTER, {
      input: { name: cluster, provider: "test", config: { "test.provider": {} } },
    });
    const created = await mutate<{ stream: { config: Maps } }>(r, CREATE_STREAM, {
      input: { name: stream, config: { vault: streamVault } },
    });
    expect(created.stream.config.vault).toEqual({
      notes: expect.stringMatching(FP),
      header: expect.stringMatching(FP),
      session: expect.stringMatching(FP),
      Pass: expect.stringMatching(FP),
      "ssl.key": expect.stringMatching(FP),
      kerberosTicket: expect.stringMatching(FP),
      owner: "billing",
    });
    await mutate(r, CREATE_BINDING, { input: { stream, cluster, config: { vault: bindingVault } } });
    await online(r, stream, cluster);
    // The provider realized the values, the stream's and the binding's merged.
    const realized = () => testPlatform().bindings.get(`${cluster}/${stream}`)?.vault;
    expect(realized()).toEqual({ ...streamVault, ...bindingVault });

    const read = await r.query<Read>(READ, { s: stream, c: cluster });
    expect(read.binding.config.vault).toEqual({
      auth: expect.stringMatching(FP),
      cred: expect.stringMatching(FP),
      blob: expect.stringMatching(FP),
      region: "eu",
    });
    expectNoSecret(JSON.stringify(read));
    expectNoSecret(await rows(r));

    // What was read, written back with one public change, keeps every secret.
    const back = { vault: { ...read.stream.config.vault, owner: "ops" } };
    const updated = await mutate<{ stream: { config: Maps; generation: number } }>(r, UPDATE_STREAM, {
      input: { name: stream, config: back },
    });
    expect(updated.stream.generation).toBe(read.stream.generation + 1);
    expect(updated.stream.config).toEqual(back);
    const rebound = { vault: { ...read.binding.config.vault, region: "us" } };
    await mutate(r, UPDATE_BINDING, { input: { stream, cluster, config: rebound } });
    await online(r, stream, cluster);
    expect(realized()).toEqual({ ...streamVault, ...bindingVault, owner: "ops", region: "us" });
    expectNoSecret(await rows(r));
    expectNoSecret(r.logs.join("\n"));
  });

  it("seals at start what was stored in clear, and hides it in the change log (idempotent)", async () => {
    const r = registry();
    const stream = `s_old_${kind}`;
    await mutate(r, CREATE_STREAM, { input: { name: stream, config: { vault: { owner: "billing" } } } });
    // As a registry before issue 19 stored it: a credential under a key no rule named, in clear.
    const old = JSON.stringify({ vault: { owner: "billing", header: `Bearer ${S.later}` } });
    await prismaOf(r.db.prisma).$executeRaw`UPDATE stream SET config = ${old}::jsonb WHERE name = ${stream}`;
    await prismaOf(r.db.prisma).$executeRaw`
      UPDATE change SET data = jsonb_set(data, '{config}', ${old}::jsonb) WHERE entity_key = ${stream}`;
    expect(await rows(r)).toContain(S.later);

    const by = {
      secrets: (_map: string, key: string) => isSecretKey(key),
      keyring: parseSecretKeys(KEYS, "test"),
    };
    const report = await sealStoredSecrets(r.db.prisma, by);
    expect(report.sealed).toContain(`stream "${stream}"`);
    expect(report.redacted.changes).toBeGreaterThanOrEqual(1);
    expectNoSecret(await rows(r));
    const { stream: shown } = await r.query<{ stream: { config: Maps } }>(
      `query($s: String!) { stream(name: $s) { config } }`,
      { s: stream },
    );
    expect(shown.config.vault).toEqual({ owner: "billing", header: expect.stringMatching(FP) });

    const again = await sealStoredSecrets(r.db.prisma, by);
    expect(again).toEqual({ sealed: [], failed: [], redacted: { changes: 0, documents: 0 } });
  });
});
