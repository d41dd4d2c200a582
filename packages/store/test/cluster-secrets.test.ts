import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  coreSecretRule,
  generateSecretKey,
  Keyring,
  UnreadableSecrets,
  type Cluster,
  type ConfigMaps,
} from "@stream-registry/core";
import { createTestDatabase, databaseKinds, type TestDatabase } from "@stream-registry/testkit";
import {
  createCluster,
  deleteCluster,
  openCluster,
  sealClearClusterSecrets,
  updateCluster,
} from "../src/clusters.ts";
import { openDatabase, type Database } from "../src/database.ts";
import { migrate } from "../src/migrate.ts";
import { rewrapEnvelopes, secretKeyUsage } from "../src/secret-rotation.ts";
import { writeTransaction } from "../src/transaction.ts";
import { prismaOf } from "../src/testing.ts";

const k1 = generateSecretKey("k1");
const k2 = generateSecretKey("k2");
const FP = /^\*{8}:[0-9a-f]{12}$/;

/** Secrets a test writes; none may ever be found in a row. */
const SECRETS = ["pw-alpha-1", "pw-bravo-2", "hook-charlie-3", "pw-delta-4", "pw-echo-5"];

const config = (password = "pw-alpha-1"): ConfigMaps => ({
  "apache.kafka": { "bootstrap.servers": "b:9092", "sasl.username": "app", "sasl.password": password },
  db: { url: "postgresql://app:pw-bravo-2@db:5432/x", host: "db" },
});

describe.each(databaseKinds)("cluster secrets at rest on %s", (kind) => {
  const handles: { testDatabase?: TestDatabase; db?: Database } = {};
  beforeAll(async () => {
    handles.testDatabase = await createTestDatabase(kind, "secrets");
    handles.db = await openDatabase({ url: handles.testDatabase.url });
    await migrate(handles.db);
  });
  afterAll(async () => {
    await handles.db?.close();
    await handles.testDatabase?.drop();
  });
  const prisma = () => handles.db!.prisma;
  const by = (keyring = new Keyring([k1])) => ({ actor: "token:admin", secrets: coreSecretRule, keyring });
  const create = (name: string, maps: ConfigMaps, keyring?: Keyring) =>
    writeTransaction(prisma(), (tx) =>
      createCluster(tx, name, { provider: "kafka", config: maps }, by(keyring)),
    );
  const update = (cluster: Cluster, maps: ConfigMaps, keyring?: Keyring) =>
    writeTransaction(prisma(), (tx) =>
      updateCluster(tx, cluster.id, { provider: "kafka", config: maps }, { ...by(keyring), fqnPrefix: "" }),
    );
  /** Every row of the tables a secret could reach, as text, read with SQL. */
  const everything = async () => {
    const rows = await prismaOf(prisma()).$queryRawUnsafe<{ row: string }[]>(`
      SELECT row_to_json(c)::text AS row FROM cluster c
      UNION ALL SELECT row_to_json(e)::text FROM secret_envelope e
      UNION ALL SELECT row_to_json(l)::text FROM change l`);
    return rows.map((r) => r.row).join("\n");
  };
  const envelopeOf = (clusterId: string) =>
    prismaOf(prisma()).secretEnvelope.findUnique({ where: { clusterId } });

  it("stores placeholders with fingerprints and sealed values, never the secrets; opens them for providers", async () => {
    const cluster = await create("c-create", config());
    expect(cluster.config["apache.kafka"]!["sasl.password"]).toMatch(FP);
    expect(cluster.config.db!.url).toMatch(/^postgresql:\/\/app:\*{8}:[0-9a-f]{12}@db:5432\/x$/);
    expect(cluster.config.db!.host).toBe("db");
    const text = await everything();
    expect(text).toContain("c-create");
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect((await envelopeOf(cluster.id))?.kid).toBe("k1");
    expect((await openCluster(prisma(), new Keyring([k1]), cluster)).config).toEqual(config());
  });

  it("keeps the data key on update: a secret given again gets a new fingerprint, one kept as shown keeps it", async () => {
    const cluster = await create("c-update", config());
    // Given again in clear, unchanged: a new fingerprint, so that no answer confirms a guess.
    const same = await update(cluster, config());
    const password = (c: { config: typeof cluster.config }) => c.config["apache.kafka"]!["sasl.password"];
    expect(password(same)).not.toBe(password(cluster));
    expect(Object.keys(same.config)).toEqual(Object.keys(cluster.config));
    const changed = await update(same, { ...config("pw-delta-4"), db: same.config.db! });
    expect(password(changed)).not.toBe(password(same));
    expect(changed.config.db).toEqual(same.config.db);
    expect((await openCluster(prisma(), new Keyring([k1]), changed)).config).toEqual(config("pw-delta-4"));
    // A secret kept as its placeholder keeps its sealed value.
    const kept = await update(changed, {
      ...changed.config,
      db: { host: "db2", url: changed.config.db!.url! },
    });
    const opened = await openCluster(prisma(), new Keyring([k1]), kept);
    expect(opened.config.db).toEqual({ host: "db2", url: "postgresql://app:pw-bravo-2@db:5432/x" });
    for (const secret of SECRETS) expect(await everything()).not.toContain(secret);
  });

  it("clears: a secret left out goes from the envelope, the envelope goes with the last secret and the cluster", async () => {
    const cluster = await create("c-clear", config());
    const { "sasl.password": _cleared, ...rest } = config()["apache.kafka"]!;
    const one = await update(cluster, { ...config(), "apache.kafka": rest });
    const sealed = (await envelopeOf(cluster.id))!.sealed as Record<string, Record<string, object>>;
    expect(Object.keys(sealed.config!)).toEqual(["db"]);
    expect((await openCluster(prisma(), new Keyring([k1]), one)).config["apache.kafka"]).toEqual(rest);
    await update(one, { "apache.kafka": rest });
    expect(await envelopeOf(cluster.id)).toBeNull();

    const gone = await create("c-delete", config());
    await writeTransaction(prisma(), (tx) => deleteCluster(tx, gone, "token:admin"));
    expect(await envelopeOf(gone.id)).toBeNull();
  });

  it("refuses an altered ciphertext at use, naming the secret and why, and leaves the rest alone", async () => {
    const cluster = await create("c-tamper", config());
    const envelope = (await envelopeOf(cluster.id))!;
    const sealed = structuredClone(envelope.sealed) as Record<
      string,
      Record<string, Record<string, { data: string }>>
    >;
    const entry = sealed.config!["apache.kafka"]!["sasl.password"]!;
    entry.data = Buffer.from("something else").toString("base64");
    await prismaOf(prisma())
      .$executeRaw`UPDATE secret_envelope SET sealed = ${JSON.stringify(sealed)}::jsonb WHERE id = ${envelope.id}::uuid`;
    const error = await openCluster(prisma(), new Keyring([k1]), cluster).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableSecrets);
    expect((error as Error).message).toBe(
      'cluster "c-tamper": secret config "apache.kafka"."sasl.password" cannot be decrypted: the value failed ' +
        "authentication: the stored ciphertext was altered, moved from another object, or wrapped with another key under the same id",
    );
    // Given anew, the secret is sealed again under the same data key.
    const fixed = await update(cluster, config("pw-echo-5"));
    expect((await openCluster(prisma(), new Keyring([k1]), fixed)).config).toEqual(config("pw-echo-5"));
  });

  it("seals secrets stored in clear (rows from before), once, without a new generation or change", async () => {
    const id = "6a1b2c3d-0000-4000-8000-00000000c1ea";
    await prismaOf(prisma()).$executeRaw`
      INSERT INTO cluster (id, name, provider, config, generation, created_at, updated_at)
      VALUES (${id}::uuid, 'c-old', 'kafka', ${JSON.stringify(config())}::jsonb, 3, now(), now())`;
    const changes = await prismaOf(prisma()).change.count();
    const first = await sealClearClusterSecrets(prisma(), {
      secrets: coreSecretRule,
      keyring: new Keyring([k1]),
    });
    expect(first).toEqual({ sealed: ["c-old"], failed: [] });
    const row = await prismaOf(prisma()).cluster.findUniqueOrThrow({ where: { id } });
    expect(row.generation).toBe(3);
    expect(await prismaOf(prisma()).change.count()).toBe(changes);
    for (const secret of SECRETS) expect(await everything()).not.toContain(secret);
    const opened = await openCluster(prisma(), new Keyring([k1]), {
      ...row,
      config: row.config as ConfigMaps,
    });
    expect(opened.config).toEqual(config());
    const again = await sealClearClusterSecrets(prisma(), {
      secrets: coreSecretRule,
      keyring: new Keyring([k1]),
    });
    expect(again).toEqual({ sealed: [], failed: [] });
    // A key that became secret since (a provider loaded that declares it) is sealed beside the others.
    const withHook = { ...(row.config as ConfigMaps), acme: { webhook: "hook-charlie-3" } };
    await prismaOf(prisma()).cluster.update({ where: { id }, data: { config: withHook } });
    const rule = (map: string, key: string) => key === "webhook" || coreSecretRule(map, key);
    const third = await sealClearClusterSecrets(prisma(), { secrets: rule, keyring: new Keyring([k1]) });
    expect(third.sealed).toEqual(["c-old"]);
    const after = await prismaOf(prisma()).cluster.findUniqueOrThrow({ where: { id } });
    const reopened = await openCluster(prisma(), new Keyring([k1]), {
      ...after,
      config: after.config as ConfigMaps,
    });
    expect(reopened.config).toEqual({ ...config(), acme: { webhook: "hook-charlie-3" } });
    for (const secret of SECRETS) expect(await everything()).not.toContain(secret);
  });

  it("rotates: old keys decrypt until rewrapped, then the new key alone does", async () => {
    const before = await create("c-rotate", config(), new Keyring([k1]));
    const both = new Keyring([k2, k1]);
    expect((await openCluster(prisma(), both, before)).config).toEqual(config());
    // A cluster written under the new list is wrapped with its first key.
    const newer = await create("c-newer", config(), both);
    expect((await envelopeOf(newer.id))?.kid).toBe("k2");
    const unknown = generateSecretKey("k0");
    const lost = await create("c-lost", config(), new Keyring([unknown]));

    const report = await rewrapEnvelopes(prisma(), both, 2);
    expect(report.failed).toEqual([
      {
        owner: 'cluster "c-lost"',
        kid: "k0",
        reason: expect.stringContaining('key id "k0", which is not configured'),
      },
    ]);
    expect(report.rewrapped).toBeGreaterThanOrEqual(1);
    expect(report.usage.map((u) => u.kid)).toEqual(["k0", "k2"]);
    expect(await secretKeyUsage(prisma())).toEqual(report.usage);
    const onlyNew = new Keyring([k2]);
    expect((await openCluster(prisma(), onlyNew, before)).config).toEqual(config());
    await expect(openCluster(prisma(), onlyNew, lost)).rejects.toThrow(
      /key id "k0", which is not configured/,
    );
    // Nothing left to do: a second run rewraps nothing.
    const again = await rewrapEnvelopes(prisma(), both);
    expect(again.rewrapped).toBe(0);
    expect(again.current).toBe(report.usage.find((u) => u.kid === "k2")!.envelopes);
  });
});
