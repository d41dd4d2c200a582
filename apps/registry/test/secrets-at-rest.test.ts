import { describe, expect, it } from "vitest";
import {
  databaseKinds,
  mutate,
  testPlatform,
  BINDING,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  UPDATE_BINDING,
  type BindingView,
  type UserErrorView,
  eventually,
} from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";
import { prismaOf } from "@stream-registry/store/testing";

type Maps = Record<string, Record<string, string | number | boolean>>;
type Declared = { created: boolean; cluster: { name: string; config: Maps; generation: number } };
type Payload = { userErrors: UserErrorView[]; cluster: Declared["cluster"] | null };

const FP = /^\*{8}:[0-9a-f]{12}$/;
const URL_FP = /^postgresql:\/\/app:\*{8}:[0-9a-f]{12}@db:5432\/x$/;
/** Every secret these tests give; none may be found in a row, a log line or an error. */
const SECRETS = [
  "tok-sealed-1",
  "pw-sealed-2",
  "pw-url-sealed-3",
  "pw-new-sealed-4",
  "tok-fixed-5",
  "pw-bad-6",
];

const vault = (apiKey = "pw-sealed-2", token = "tok-sealed-1") => ({
  "test.provider": {},
  vault: { token, "api-key": apiKey, url: "postgresql://app:pw-url-sealed-3@db:5432/x", region: "eu" },
});

async function declare(r: TestRegistry, input: Record<string, unknown>): Promise<Payload> {
  const { declareCluster } = await r.query<{ declareCluster: Payload }>(DECLARE_CLUSTER, { input });
  return declareCluster;
}

/** Every row of the tables a cluster's secret could reach, as text, read with SQL. */
async function rows(r: TestRegistry): Promise<string> {
  const found = await prismaOf(r.db.prisma).$queryRawUnsafe<{ row: string }[]>(`
    SELECT row_to_json(c)::text AS row FROM cluster c
    UNION ALL SELECT row_to_json(e)::text FROM secret_envelope e
    UNION ALL SELECT row_to_json(l)::text FROM change l
    UNION ALL SELECT row_to_json(j)::text FROM job j
    UNION ALL SELECT row_to_json(b)::text FROM binding b`);
  return found.map((row) => row.row).join("\n");
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

/** Waits until the binding is ONLINE at its latest generation. */
async function online(r: TestRegistry, stream: string, cluster: string) {
  return eventually(async () => {
    const { binding } = await r.query<{ binding: BindingView }>(BINDING, { stream, cluster });
    const { phase, generation, observedGeneration } = binding.status;
    return phase === "ONLINE" && observedGeneration === generation ? binding : undefined;
  });
}

describe.each(databaseKinds)("secrets at rest on %s", (kind) => {
  const registry = useTestRegistry(kind);

  it("stores secrets sealed (rows, envelope, change log and jobs hold none); the provider gets them in clear", async () => {
    const r = registry();
    const name = `sealed-${kind}`;
    const { cluster } = await mutate<Declared>(r, DECLARE_CLUSTER, {
      input: { name, provider: "test", config: vault() },
    });
    expect(cluster.config.vault).toEqual({
      token: expect.stringMatching(FP),
      "api-key": expect.stringMatching(FP),
      url: expect.stringMatching(URL_FP),
      region: "eu",
    });
    // Validation reached the cluster with the secrets in clear.
    expect(testPlatform().reached.get(name)).toEqual(vault());
    testPlatform().reached.delete(name);

    // So does the reconciler, which reads them from the database.
    const stream = `s_sealed_${kind}`;
    await mutate(r, CREATE_STREAM, { input: { name: stream } });
    await mutate(r, CREATE_BINDING, { input: { stream, cluster: name } });
    await online(r, stream, name);
    expect(testPlatform().reached.get(name)).toEqual(vault());

    // Queries and the change log show what is stored: placeholders with fingerprints.
    const shown = await r.query<{ cluster: { config: Maps } }>(
      `query($n: String!) { cluster(name: $n) { config } }`,
      {
        n: name,
      },
    );
    expect(shown.cluster.config).toEqual(cluster.config);
    const { changes } = await r.query<{
      changes: { nodes: { entityKey: string; data: { config?: Maps } }[] };
    }>(`{ changes(first: 500) { nodes { entityKey data } } }`);
    expect(changes.nodes.find((c) => c.entityKey === name)?.data.config).toEqual(cluster.config);
    const stored = await rows(r);
    expect(stored).toContain(name);
    expectNoSecret(stored);
  });

  it("keeps a secret written back as shown or as the bare placeholder, replaces one given anew, clears one given null", async () => {
    const r = registry();
    const name = `keep-${kind}`;
    const { cluster } = await mutate<Declared>(r, DECLARE_CLUSTER, {
      input: { name, provider: "test", config: vault() },
    });
    const again = await mutate<Declared>(r, DECLARE_CLUSTER, { input: { name, config: cluster.config } });
    expect(again.cluster.generation).toBe(cluster.generation);
    const bare = { ...cluster.config, vault: { ...cluster.config.vault, token: "********" } };
    expect(
      (await mutate<Declared>(r, DECLARE_CLUSTER, { input: { name, config: bare } })).cluster.generation,
    ).toBe(cluster.generation);

    const replaced = await mutate<Declared>(r, DECLARE_CLUSTER, {
      input: {
        name,
        config: { ...cluster.config, vault: { ...cluster.config.vault, "api-key": "pw-new-sealed-4" } },
      },
    });
    expect(replaced.cluster.generation).toBe(cluster.generation + 1);
    expect(replaced.cluster.config.vault!.token).toBe(cluster.config.vault!.token);
    expect(replaced.cluster.config.vault!["api-key"]).toMatch(FP);
    expect(replaced.cluster.config.vault!["api-key"]).not.toBe(cluster.config.vault!["api-key"]);
    expect(testPlatform().reached.get(name)).toEqual(vault("pw-new-sealed-4"));

    // The fingerprint read before the change no longer stands for the stored value.
    const stale = await declare(r, { name, config: cluster.config });
    expect(stale.userErrors).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "config", "vault", "api-key"],
        message: expect.stringContaining("the secret changed since it was read"),
      }),
    ]);

    const cleared = await mutate<Declared>(r, DECLARE_CLUSTER, {
      input: { name, config: { vault: { ...replaced.cluster.config.vault, token: null } } },
    });
    expect(cleared.cluster.config.vault).not.toHaveProperty("token");
    expect(cleared.cluster.config["test.provider"]).toEqual({});
    const envelope = await prismaOf(r.db.prisma).$queryRaw<{ keys: string[] }[]>`
      SELECT array(SELECT jsonb_object_keys(e.sealed->'config'->'vault')) AS keys
      FROM secret_envelope e JOIN cluster c ON c.id = e.cluster_id WHERE c.name = ${name}`;
    expect(envelope[0]?.keys.sort()).toEqual(["api-key", "url"]);
    expect(testPlatform().reached.get(name)?.vault).toEqual({
      "api-key": "pw-new-sealed-4",
      url: "postgresql://app:pw-url-sealed-3@db:5432/x",
      region: "eu",
    });
    expectNoSecret(await rows(r));
  });

  it("refuses an altered ciphertext where it is used, with a clear error, until the secret is given again", async () => {
    const r = registry();
    const name = `tamper-${kind}`;
    const stream = `s_tamper_${kind}`;
    const { cluster } = await mutate<Declared>(r, DECLARE_CLUSTER, {
      input: { name, provider: "test", config: vault() },
    });
    await mutate(r, CREATE_STREAM, { input: { name: stream } });
    await mutate(r, CREATE_BINDING, { input: { stream, cluster: name } });
    await online(r, stream, name);

    // Someone with write access to the database swaps the token's ciphertext for the api key's.
    await prismaOf(r.db.prisma).$executeRaw`
      UPDATE secret_envelope e SET sealed = jsonb_set(e.sealed, '{config,vault,token}', e.sealed->'config'->'vault'->'api-key')
      FROM cluster c WHERE c.id = e.cluster_id AND c.name = ${name}`;

    // A change of the binding is accepted (as with a cluster that is down) and its reconcile says why it cannot go on.
    await mutate(r, UPDATE_BINDING, {
      input: { stream, cluster: name, config: { "test.provider": { partitions: 2 } } },
    });
    const stuck = await eventually(async () => {
      const { binding } = await r.query<{ binding: BindingView }>(BINDING, { stream, cluster: name });
      return binding.status.message?.includes("cannot be decrypted") ? binding : undefined;
    });
    expect(stuck.status.phase).toBe("PENDING");
    expect(stuck.status.message).toContain(
      `cluster "${name}": secret config "vault"."token" cannot be decrypted: the value failed authentication`,
    );
    expect(testPlatform().reached.get(name)).toEqual(vault());

    // Keeping it is refused, naming the field; giving it again replaces it, and the binding goes on.
    const kept = await declare(r, { name, config: cluster.config });
    expect(kept.userErrors).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "config", "vault", "token"],
        message: expect.stringMatching(/cannot be decrypted: .*give its value again to replace it$/),
      }),
    ]);
    const fixed = { ...cluster.config, vault: { ...cluster.config.vault, token: "tok-fixed-5" } };
    await mutate(r, DECLARE_CLUSTER, { input: { name, config: fixed } });
    await online(r, stream, name);
    expect(testPlatform().reached.get(name)).toEqual(vault("pw-sealed-2", "tok-fixed-5"));
    expectNoSecret(await rows(r));
  });

  it("keeps secrets out of error messages, and out of everything the registry logged", async () => {
    const r = registry();
    const refusals = [
      // A map a provider owns refuses a key, beside a secret.
      {
        name: `bad-${kind}`,
        provider: "test",
        config: { "test.provider": { nope: 1 }, vault: { token: "pw-bad-6" } },
      },
      // A value of the wrong shape under a secret key.
      { name: `bad-${kind}`, provider: "test", config: { vault: { token: ["pw-bad-6"] } } },
      // A placeholder with nothing to keep, beside a secret.
      {
        name: `bad-${kind}`,
        provider: "test",
        config: { vault: { token: "********", password: "pw-bad-6" } },
      },
    ];
    for (const input of refusals) {
      const response = await r.request(DECLARE_CLUSTER, { input });
      expect(JSON.stringify(response)).toMatch(/userErrors|errors/);
      expectNoSecret(JSON.stringify(response));
    }
    expect(r.logs.length).toBeGreaterThan(10);
    expectNoSecret(r.logs.join("\n"));
  });
});
